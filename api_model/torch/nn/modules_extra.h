#pragma once
// gradlint LibTorch API model: more torch::nn modules and their options (LibTorch 1.13.1
// torch/nn/modules/{activation,conv,instancenorm,padding,upsampling}.h and options).
#include <torch/nn/modules.h>

namespace torch {
namespace nn {

// ---- options ----
struct TORCH_API ELUOptions {
  GRADLINT_MODEL_ARG(double, alpha);  // = 1.0
  GRADLINT_MODEL_ARG(bool, inplace);  // = false
};
struct TORCH_API SELUOptions {
  /* implicit */ SELUOptions(bool inplace = false);
  GRADLINT_MODEL_ARG(bool, inplace);
};
struct TORCH_API CELUOptions {
  GRADLINT_MODEL_ARG(double, alpha);  // = 1.0
  GRADLINT_MODEL_ARG(bool, inplace);  // = false
};
struct TORCH_API HardtanhOptions {
  GRADLINT_MODEL_ARG(double, min_val);  // = -1.0
  GRADLINT_MODEL_ARG(double, max_val);  // = 1.0
  GRADLINT_MODEL_ARG(bool, inplace);  // = false
};
struct TORCH_API PReLUOptions {
  GRADLINT_MODEL_ARG(int64_t, num_parameters);  // = 1
  GRADLINT_MODEL_ARG(double, init);  // = 0.25
};
struct TORCH_API SoftplusOptions {
  GRADLINT_MODEL_ARG(double, beta);  // = 1.0
  GRADLINT_MODEL_ARG(double, threshold);  // = 20.0
};
struct TORCH_API UpsampleOptions {
  GRADLINT_MODEL_ARG(c10::optional<std::vector<int64_t>>, size);
  GRADLINT_MODEL_ARG(c10::optional<std::vector<double>>, scale_factor);
  typedef c10::variant<enumtype::kNearest, enumtype::kLinear, enumtype::kBilinear, enumtype::kBicubic,
                       enumtype::kTrilinear>
      mode_t;
  GRADLINT_MODEL_ARG(mode_t, mode);  // = torch::kNearest
  GRADLINT_MODEL_ARG(c10::optional<bool>, align_corners);
};
struct TORCH_API InstanceNormOptions {
  /* implicit */ InstanceNormOptions(int64_t num_features);
  GRADLINT_MODEL_ARG(int64_t, num_features);
  GRADLINT_MODEL_ARG(double, eps);  // = 1e-5
  GRADLINT_MODEL_ARG(double, momentum);  // = 0.1
  GRADLINT_MODEL_ARG(bool, affine);  // = false
  GRADLINT_MODEL_ARG(bool, track_running_stats);  // = false
};
template <size_t D>
struct TORCH_API ReflectionPadOptions {
  ReflectionPadOptions(ExpandingArray<D * 2> padding);
  GRADLINT_MODEL_ARG(ExpandingArray<D * 2>, padding);
};
using ReflectionPad1dOptions = ReflectionPadOptions<1>;
using ReflectionPad2dOptions = ReflectionPadOptions<2>;
using ReflectionPad3dOptions = ReflectionPadOptions<3>;
template <size_t D>
struct TORCH_API ConvTransposeOptions {
  using padding_mode_t =
      c10::variant<enumtype::kZeros, enumtype::kReflect, enumtype::kReplicate, enumtype::kCircular>;
  ConvTransposeOptions(int64_t in_channels, int64_t out_channels, ExpandingArray<D> kernel_size);
  GRADLINT_MODEL_ARG(int64_t, in_channels);
  GRADLINT_MODEL_ARG(int64_t, out_channels);
  GRADLINT_MODEL_ARG(ExpandingArray<D>, kernel_size);
  GRADLINT_MODEL_ARG(ExpandingArray<D>, stride);  // = 1
  GRADLINT_MODEL_ARG(ExpandingArray<D>, padding);  // = 0
  GRADLINT_MODEL_ARG(ExpandingArray<D>, output_padding);  // = 0
  GRADLINT_MODEL_ARG(int64_t, groups);  // = 1
  GRADLINT_MODEL_ARG(bool, bias);  // = true
  GRADLINT_MODEL_ARG(ExpandingArray<D>, dilation);  // = 1
  GRADLINT_MODEL_ARG(padding_mode_t, padding_mode);  // = torch::kZeros
};
using ConvTranspose1dOptions = ConvTransposeOptions<1>;
using ConvTranspose2dOptions = ConvTransposeOptions<2>;
using ConvTranspose3dOptions = ConvTransposeOptions<3>;

// ---- activations ----
// Declares an activation module XImpl(const XOptions& = {}) with forward(Tensor).
#define GRADLINT_MODEL_ACTIVATION(Name, Input)                                \
  class TORCH_API Name##Impl : public torch::nn::Cloneable<Name##Impl> {      \
   public:                                                                    \
    explicit Name##Impl(const Name##Options& options_ = {});                  \
    Tensor forward(Input input);                                              \
    void reset() override;                                                    \
    void pretty_print(std::ostream& stream) const override;                   \
    Name##Options options;                                                    \
  };                                                                          \
  TORCH_MODULE(Name)
GRADLINT_MODEL_ACTIVATION(ELU, Tensor);
GRADLINT_MODEL_ACTIVATION(SELU, Tensor);
GRADLINT_MODEL_ACTIVATION(CELU, Tensor);
GRADLINT_MODEL_ACTIVATION(Hardtanh, Tensor);
GRADLINT_MODEL_ACTIVATION(Softplus, const Tensor&);

// Modules without options: forward(const Tensor&).
#define GRADLINT_MODEL_STATELESS(Name)                                        \
  class TORCH_API Name##Impl : public torch::nn::Cloneable<Name##Impl> {      \
   public:                                                                    \
    Tensor forward(const Tensor& input);                                      \
    void reset() override;                                                    \
    void pretty_print(std::ostream& stream) const override;                   \
  };                                                                          \
  TORCH_MODULE(Name)
GRADLINT_MODEL_STATELESS(SiLU);
GRADLINT_MODEL_STATELESS(Mish);
GRADLINT_MODEL_STATELESS(Softsign);
GRADLINT_MODEL_STATELESS(Tanhshrink);

class TORCH_API PReLUImpl : public torch::nn::Cloneable<PReLUImpl> {
 public:
  explicit PReLUImpl(const PReLUOptions& options_ = {});
  Tensor forward(const Tensor& input);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  PReLUOptions options;
  Tensor weight;
};
TORCH_MODULE(PReLU);

// ---- upsampling ----
class TORCH_API UpsampleImpl : public torch::nn::Cloneable<UpsampleImpl> {
 public:
  explicit UpsampleImpl(const UpsampleOptions& options_ = {});
  Tensor forward(const Tensor& input);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  UpsampleOptions options;
};
TORCH_MODULE(Upsample);

// ---- instance norm ----
template <size_t D, typename Derived>
class InstanceNormImpl : public torch::nn::NormImplBase<D, Derived, InstanceNormOptions> {
 public:
  using torch::nn::NormImplBase<D, Derived, InstanceNormOptions>::NormImplBase;
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override;
};
class TORCH_API InstanceNorm1dImpl : public InstanceNormImpl<1, InstanceNorm1dImpl> {
 public:
  using InstanceNormImpl<1, InstanceNorm1dImpl>::InstanceNormImpl;
};
TORCH_MODULE(InstanceNorm1d);
class TORCH_API InstanceNorm2dImpl : public InstanceNormImpl<2, InstanceNorm2dImpl> {
 public:
  using InstanceNormImpl<2, InstanceNorm2dImpl>::InstanceNormImpl;
};
TORCH_MODULE(InstanceNorm2d);
class TORCH_API InstanceNorm3dImpl : public InstanceNormImpl<3, InstanceNorm3dImpl> {
 public:
  using InstanceNormImpl<3, InstanceNorm3dImpl>::InstanceNormImpl;
};
TORCH_MODULE(InstanceNorm3d);

// ---- padding ----
template <size_t D, typename Derived>
class TORCH_API ReflectionPadImpl : public torch::nn::Cloneable<Derived> {
 public:
  ReflectionPadImpl(ExpandingArray<D * 2> padding);
  explicit ReflectionPadImpl(const ReflectionPadOptions<D>& options_);
  void reset() override;
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override;
  ReflectionPadOptions<D> options;
};
class TORCH_API ReflectionPad1dImpl : public ReflectionPadImpl<1, ReflectionPad1dImpl> {
 public:
  using ReflectionPadImpl<1, ReflectionPad1dImpl>::ReflectionPadImpl;
};
TORCH_MODULE(ReflectionPad1d);
class TORCH_API ReflectionPad2dImpl : public ReflectionPadImpl<2, ReflectionPad2dImpl> {
 public:
  using ReflectionPadImpl<2, ReflectionPad2dImpl>::ReflectionPadImpl;
};
TORCH_MODULE(ReflectionPad2d);
class TORCH_API ReflectionPad3dImpl : public ReflectionPadImpl<3, ReflectionPad3dImpl> {
 public:
  using ReflectionPadImpl<3, ReflectionPad3dImpl>::ReflectionPadImpl;
};
TORCH_MODULE(ReflectionPad3d);

// ---- transposed convolution ----
template <size_t D, typename Derived>
class ConvTransposeNdImpl : public ConvNdImpl<D, Derived> {
 public:
  using torch::nn::ConvNdImpl<D, Derived>::ConvNdImpl;
  void pretty_print(std::ostream& stream) const override;
};
#define GRADLINT_MODEL_CONV_TRANSPOSE(D)                                                        \
  class TORCH_API ConvTranspose##D##dImpl                                                       \
      : public ConvTransposeNdImpl<D, ConvTranspose##D##dImpl> {                                \
   public:                                                                                      \
    ConvTranspose##D##dImpl(int64_t input_channels, int64_t output_channels,                    \
                            ExpandingArray<D> kernel_size);                                     \
    explicit ConvTranspose##D##dImpl(ConvTranspose##D##dOptions options_);                      \
    Tensor forward(const Tensor& input, const c10::optional<at::IntArrayRef>& output_size = {}); \
  };                                                                                            \
  TORCH_MODULE(ConvTranspose##D##d)
GRADLINT_MODEL_CONV_TRANSPOSE(1);
GRADLINT_MODEL_CONV_TRANSPOSE(2);
GRADLINT_MODEL_CONV_TRANSPOSE(3);
#undef GRADLINT_MODEL_CONV_TRANSPOSE

// ---- more options ----
using InstanceNorm1dOptions = InstanceNormOptions;
using InstanceNorm2dOptions = InstanceNormOptions;
using InstanceNorm3dOptions = InstanceNormOptions;
using AvgPool3dOptions = AvgPoolOptions<3>;
using AdaptiveAvgPool1dOptions = AdaptiveAvgPoolOptions<1, ExpandingArray<1>>;
using AdaptiveAvgPool3dOptions = AdaptiveAvgPoolOptions<3, ExpandingArrayWithOptionalElem<3>>;
template <typename output_size_t>
struct AdaptiveMaxPoolOptions {
  AdaptiveMaxPoolOptions(output_size_t output_size);
  GRADLINT_MODEL_ARG(output_size_t, output_size);
};
using AdaptiveMaxPool1dOptions = AdaptiveMaxPoolOptions<ExpandingArray<1>>;
using AdaptiveMaxPool2dOptions = AdaptiveMaxPoolOptions<ExpandingArrayWithOptionalElem<2>>;
using AdaptiveMaxPool3dOptions = AdaptiveMaxPoolOptions<ExpandingArrayWithOptionalElem<3>>;
using AlphaDropoutOptions = DropoutOptions;
using FeatureAlphaDropoutOptions = DropoutOptions;
struct TORCH_API ReLU6Options {
  /* implicit */ ReLU6Options(bool inplace = false);
  GRADLINT_MODEL_ARG(bool, inplace);
};
struct TORCH_API RReLUOptions {
  GRADLINT_MODEL_ARG(double, lower);  // = 1.0 / 8.0
  GRADLINT_MODEL_ARG(double, upper);  // = 1.0 / 3.0
  GRADLINT_MODEL_ARG(bool, inplace);  // = false
};
struct TORCH_API SoftminOptions {
  SoftminOptions(int64_t dim);
  GRADLINT_MODEL_ARG(int64_t, dim);
};
struct TORCH_API SoftshrinkOptions {
  /* implicit */ SoftshrinkOptions(double lambda = 0.5);
  GRADLINT_MODEL_ARG(double, lambda);
};
struct TORCH_API HardshrinkOptions {
  /* implicit */ HardshrinkOptions(double lambda = 0.5);
  GRADLINT_MODEL_ARG(double, lambda);
};
struct TORCH_API ThresholdOptions {
  ThresholdOptions(double threshold, double value);
  GRADLINT_MODEL_ARG(double, threshold);
  GRADLINT_MODEL_ARG(double, value);
  GRADLINT_MODEL_ARG(bool, inplace);  // = false
};
struct TORCH_API GLUOptions {
  /* implicit */ GLUOptions(int64_t dim = -1);
  GRADLINT_MODEL_ARG(int64_t, dim);
};
struct TORCH_API ZeroPad2dOptions {
  ZeroPad2dOptions(ExpandingArray<4> padding);
  GRADLINT_MODEL_ARG(ExpandingArray<4>, padding);
};
template <size_t D>
struct TORCH_API ConstantPadOptions {
  ConstantPadOptions(ExpandingArray<D * 2> padding, double value);
  GRADLINT_MODEL_ARG(ExpandingArray<D * 2>, padding);
  GRADLINT_MODEL_ARG(double, value);
};
using ConstantPad1dOptions = ConstantPadOptions<1>;
using ConstantPad2dOptions = ConstantPadOptions<2>;
using ConstantPad3dOptions = ConstantPadOptions<3>;
template <size_t D>
struct TORCH_API ReplicationPadOptions {
  ReplicationPadOptions(ExpandingArray<D * 2> padding);
  GRADLINT_MODEL_ARG(ExpandingArray<D * 2>, padding);
};
using ReplicationPad1dOptions = ReplicationPadOptions<1>;
using ReplicationPad2dOptions = ReplicationPadOptions<2>;
using ReplicationPad3dOptions = ReplicationPadOptions<3>;
struct TORCH_API PixelShuffleOptions {
  PixelShuffleOptions(int64_t upscale_factor);
  GRADLINT_MODEL_ARG(int64_t, upscale_factor);
};
struct TORCH_API PixelUnshuffleOptions {
  /* implicit */ PixelUnshuffleOptions(int64_t downscale_factor);
  GRADLINT_MODEL_ARG(int64_t, downscale_factor);
};
struct TORCH_API UnflattenOptions {
  typedef std::vector<std::pair<std::string, int64_t>> namedshape_t;
  UnflattenOptions(int64_t dim, std::vector<int64_t> sizes);
  UnflattenOptions(const char* dimname, namedshape_t namedshape);
  UnflattenOptions(std::string dimname, namedshape_t namedshape);
  GRADLINT_MODEL_ARG(int64_t, dim);
  GRADLINT_MODEL_ARG(std::string, dimname);
  GRADLINT_MODEL_ARG(std::vector<int64_t>, sizes);
  GRADLINT_MODEL_ARG(namedshape_t, namedshape);
};
struct TORCH_API CosineSimilarityOptions {
  GRADLINT_MODEL_ARG(int64_t, dim);  // = 1
  GRADLINT_MODEL_ARG(double, eps);  // = 1e-8
};
struct TORCH_API PairwiseDistanceOptions {
  GRADLINT_MODEL_ARG(double, p);  // = 2.0
  GRADLINT_MODEL_ARG(double, eps);  // = 1e-6
  GRADLINT_MODEL_ARG(bool, keepdim);  // = false
};
struct TORCH_API GroupNormOptions {
  GroupNormOptions(int64_t num_groups, int64_t num_channels);
  GRADLINT_MODEL_ARG(int64_t, num_groups);
  GRADLINT_MODEL_ARG(int64_t, num_channels);
  GRADLINT_MODEL_ARG(double, eps);  // = 1e-5
  GRADLINT_MODEL_ARG(bool, affine);  // = true
};
struct TORCH_API BilinearOptions {
  BilinearOptions(int64_t in1_features, int64_t in2_features, int64_t out_features);
  GRADLINT_MODEL_ARG(int64_t, in1_features);
  GRADLINT_MODEL_ARG(int64_t, in2_features);
  GRADLINT_MODEL_ARG(int64_t, out_features);
  GRADLINT_MODEL_ARG(bool, bias);  // = true
};
struct TORCH_API RNNOptions {
  typedef c10::variant<enumtype::kTanh, enumtype::kReLU> nonlinearity_t;
  RNNOptions(int64_t input_size, int64_t hidden_size);
  GRADLINT_MODEL_ARG(int64_t, input_size);
  GRADLINT_MODEL_ARG(int64_t, hidden_size);
  GRADLINT_MODEL_ARG(int64_t, num_layers);  // = 1
  GRADLINT_MODEL_ARG(nonlinearity_t, nonlinearity);  // = torch::kTanh
  GRADLINT_MODEL_ARG(bool, bias);  // = true
  GRADLINT_MODEL_ARG(bool, batch_first);  // = false
  GRADLINT_MODEL_ARG(double, dropout);  // = 0.0
  GRADLINT_MODEL_ARG(bool, bidirectional);  // = false
};
struct TORCH_API RNNCellOptions {
  typedef c10::variant<enumtype::kTanh, enumtype::kReLU> nonlinearity_t;
  RNNCellOptions(int64_t input_size, int64_t hidden_size);
  GRADLINT_MODEL_ARG(int64_t, input_size);
  GRADLINT_MODEL_ARG(int64_t, hidden_size);
  GRADLINT_MODEL_ARG(bool, bias);  // = true
  GRADLINT_MODEL_ARG(nonlinearity_t, nonlinearity);  // = torch::kTanh
};
struct TORCH_API LSTMCellOptions {
  LSTMCellOptions(int64_t input_size, int64_t hidden_size);
  GRADLINT_MODEL_ARG(int64_t, input_size);
  GRADLINT_MODEL_ARG(int64_t, hidden_size);
  GRADLINT_MODEL_ARG(bool, bias);  // = true
};
struct TORCH_API GRUCellOptions {
  GRUCellOptions(int64_t input_size, int64_t hidden_size);
  GRADLINT_MODEL_ARG(int64_t, input_size);
  GRADLINT_MODEL_ARG(int64_t, hidden_size);
  GRADLINT_MODEL_ARG(bool, bias);  // = true
};
struct TORCH_API MultiheadAttentionOptions {
  MultiheadAttentionOptions(int64_t embed_dim, int64_t num_heads);
  GRADLINT_MODEL_ARG(int64_t, embed_dim);
  GRADLINT_MODEL_ARG(int64_t, num_heads);
  GRADLINT_MODEL_ARG(double, dropout);  // = 0.0
  GRADLINT_MODEL_ARG(bool, bias);  // = true
  GRADLINT_MODEL_ARG(bool, add_bias_kv);  // = false
  GRADLINT_MODEL_ARG(bool, add_zero_attn);  // = false
  GRADLINT_MODEL_ARG(int64_t, kdim);
  GRADLINT_MODEL_ARG(int64_t, vdim);
};
#define GRADLINT_MODEL_LOSS_OPTIONS(Name)                                          \
  typedef c10::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum> reduction_t; \
  GRADLINT_MODEL_OPTIONS_CTOR_VARIANT_ARG3(Name, reduction, kNone, kMean, kSum)      \
  GRADLINT_MODEL_ARG(reduction_t, reduction)
struct TORCH_API MarginRankingLossOptions {
  GRADLINT_MODEL_LOSS_OPTIONS(MarginRankingLossOptions);
  GRADLINT_MODEL_ARG(double, margin);  // = 0
};
struct TORCH_API TripletMarginLossOptions {
  GRADLINT_MODEL_LOSS_OPTIONS(TripletMarginLossOptions);
  GRADLINT_MODEL_ARG(double, margin);  // = 1.0
  GRADLINT_MODEL_ARG(double, p);  // = 2.0
  GRADLINT_MODEL_ARG(double, eps);  // = 1e-6
  GRADLINT_MODEL_ARG(bool, swap);  // = false
};
struct TORCH_API CosineEmbeddingLossOptions {
  GRADLINT_MODEL_LOSS_OPTIONS(CosineEmbeddingLossOptions);
  GRADLINT_MODEL_ARG(double, margin);  // = 0.0
};
struct TORCH_API SoftMarginLossOptions {
  GRADLINT_MODEL_LOSS_OPTIONS(SoftMarginLossOptions);
};
struct TORCH_API MultiLabelSoftMarginLossOptions {
  GRADLINT_MODEL_LOSS_OPTIONS(MultiLabelSoftMarginLossOptions);
  GRADLINT_MODEL_ARG(Tensor, weight);  // = {}
};
struct TORCH_API MultiLabelMarginLossOptions {
  GRADLINT_MODEL_LOSS_OPTIONS(MultiLabelMarginLossOptions);
};
struct TORCH_API MultiMarginLossOptions {
  GRADLINT_MODEL_LOSS_OPTIONS(MultiMarginLossOptions);
  GRADLINT_MODEL_ARG(int64_t, p);  // = 1
  GRADLINT_MODEL_ARG(double, margin);  // = 1.0
  GRADLINT_MODEL_ARG(Tensor, weight);  // = {}
};
struct TORCH_API HingeEmbeddingLossOptions {
  GRADLINT_MODEL_LOSS_OPTIONS(HingeEmbeddingLossOptions);
  GRADLINT_MODEL_ARG(double, margin);  // = 1.0
};
struct TORCH_API PoissonNLLLossOptions {
  GRADLINT_MODEL_LOSS_OPTIONS(PoissonNLLLossOptions);
  GRADLINT_MODEL_ARG(bool, log_input);  // = true
  GRADLINT_MODEL_ARG(bool, full);  // = false
  GRADLINT_MODEL_ARG(double, eps);  // = 1e-8
};
#undef GRADLINT_MODEL_LOSS_OPTIONS

// ---- more modules ----
// The dimension-generic modules: XImpl<D, Derived> and its XNdImpl per dimension.
#define GRADLINT_MODEL_ND(Name, Base, D, ...)                                 \
  class TORCH_API Name##Impl : public Base<D, Name##Impl> {                       \
   public:                                                                        \
    using Base<D, Name##Impl>::Base;                                              \
    __VA_ARGS__;                                                                      \
  };                                                                              \
  TORCH_MODULE(Name)
GRADLINT_MODEL_ND(MaxPool3d, MaxPoolImpl, 3, Tensor forward(const Tensor& input);
                 std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input));
GRADLINT_MODEL_ND(AvgPool1d, AvgPoolImpl, 1, Tensor forward(const Tensor& input));
GRADLINT_MODEL_ND(AvgPool3d, AvgPoolImpl, 3, Tensor forward(const Tensor& input));
GRADLINT_MODEL_ND(BatchNorm3d, BatchNormImplBase, 3, void check_input_dimensions(const Tensor& input));
class TORCH_API Conv3dImpl : public ConvNdImpl<3, Conv3dImpl> {
 public:
  Conv3dImpl(int64_t input_channels, int64_t output_channels, ExpandingArray<3> kernel_size);
  explicit Conv3dImpl(Conv3dOptions options_);
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(Conv3d);
class TORCH_API AdaptiveAvgPool1dImpl
    : public AdaptiveAvgPoolImpl<1, ExpandingArray<1>, AdaptiveAvgPool1dImpl> {
 public:
  using AdaptiveAvgPoolImpl<1, ExpandingArray<1>, AdaptiveAvgPool1dImpl>::AdaptiveAvgPoolImpl;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(AdaptiveAvgPool1d);
class TORCH_API AdaptiveAvgPool3dImpl
    : public AdaptiveAvgPoolImpl<3, ExpandingArrayWithOptionalElem<3>, AdaptiveAvgPool3dImpl> {
 public:
  using AdaptiveAvgPoolImpl<3, ExpandingArrayWithOptionalElem<3>, AdaptiveAvgPool3dImpl>::AdaptiveAvgPoolImpl;
  Tensor forward(const Tensor& input);
};
TORCH_MODULE(AdaptiveAvgPool3d);
template <size_t D, typename output_size_t, typename Derived>
class TORCH_API AdaptiveMaxPoolImpl : public torch::nn::Cloneable<Derived> {
 public:
  AdaptiveMaxPoolImpl(output_size_t output_size);
  explicit AdaptiveMaxPoolImpl(const AdaptiveMaxPoolOptions<output_size_t>& options_);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  AdaptiveMaxPoolOptions<output_size_t> options;
};
#define GRADLINT_MODEL_ADAPTIVE_MAX_POOL(D, OutputSize)                                     \
  class TORCH_API AdaptiveMaxPool##D##dImpl                                                 \
      : public AdaptiveMaxPoolImpl<D, OutputSize, AdaptiveMaxPool##D##dImpl> {              \
   public:                                                                                  \
    using AdaptiveMaxPoolImpl<D, OutputSize, AdaptiveMaxPool##D##dImpl>::AdaptiveMaxPoolImpl; \
    Tensor forward(const Tensor& input);                                                    \
    std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input);                   \
  };                                                                                        \
  TORCH_MODULE(AdaptiveMaxPool##D##d)
GRADLINT_MODEL_ADAPTIVE_MAX_POOL(1, ExpandingArray<1>);
GRADLINT_MODEL_ADAPTIVE_MAX_POOL(2, ExpandingArrayWithOptionalElem<2>);
GRADLINT_MODEL_ADAPTIVE_MAX_POOL(3, ExpandingArrayWithOptionalElem<3>);
#undef GRADLINT_MODEL_ADAPTIVE_MAX_POOL

#define GRADLINT_MODEL_DROPOUT(Name, Input)                                       \
  class TORCH_API Name##Impl : public detail::_DropoutNd<Name##Impl> {           \
   public:                                                                        \
    using detail::_DropoutNd<Name##Impl>::_DropoutNd;                            \
    Tensor forward(Input input);                                                  \
    void pretty_print(std::ostream& stream) const override;                       \
  };                                                                              \
  TORCH_MODULE(Name)
GRADLINT_MODEL_DROPOUT(Dropout3d, Tensor);
GRADLINT_MODEL_DROPOUT(AlphaDropout, const Tensor&);
GRADLINT_MODEL_DROPOUT(FeatureAlphaDropout, const Tensor&);
#undef GRADLINT_MODEL_DROPOUT

GRADLINT_MODEL_ACTIVATION(ReLU6, Tensor);
GRADLINT_MODEL_ACTIVATION(RReLU, Tensor);
GRADLINT_MODEL_ACTIVATION(Softshrink, const Tensor&);
GRADLINT_MODEL_ACTIVATION(Hardshrink, const Tensor&);
GRADLINT_MODEL_ACTIVATION(GLU, const Tensor&);
GRADLINT_MODEL_STATELESS(LogSigmoid);
GRADLINT_MODEL_STATELESS(Softmax2d);

// Modules whose constructor takes the options' required arguments too.
#define GRADLINT_MODEL_WITH_ARGS(Name, Args, ...)                              \
  class TORCH_API Name##Impl : public torch::nn::Cloneable<Name##Impl> {          \
   public:                                                                         \
    Name##Impl Args;                                                               \
    explicit Name##Impl(const Name##Options& options_);                            \
    __VA_ARGS__;                                                                       \
    void reset() override;                                                         \
    void pretty_print(std::ostream& stream) const override;                        \
    Name##Options options;                                                         \
  };                                                                               \
  TORCH_MODULE(Name)
GRADLINT_MODEL_WITH_ARGS(Softmin, (int64_t dim), Tensor forward(const Tensor& input));
GRADLINT_MODEL_WITH_ARGS(Threshold, (double threshold, double value), Tensor forward(Tensor input));
GRADLINT_MODEL_WITH_ARGS(ZeroPad2d, (ExpandingArray<4> padding), Tensor forward(const Tensor& input));
GRADLINT_MODEL_WITH_ARGS(PixelShuffle, (int64_t upscale_factor), Tensor forward(const Tensor& input));
GRADLINT_MODEL_WITH_ARGS(PixelUnshuffle, (int64_t downscale_factor), Tensor forward(const Tensor& input));
GRADLINT_MODEL_WITH_ARGS(Unflatten, (int64_t dim, std::vector<int64_t> sizes), Tensor forward(const Tensor& input));
GRADLINT_MODEL_WITH_ARGS(CosineSimilarity, (), Tensor forward(const Tensor& input1, const Tensor& input2));
GRADLINT_MODEL_WITH_ARGS(PairwiseDistance, (), Tensor forward(const Tensor& input1, const Tensor& input2));
class TORCH_API GroupNormImpl : public torch::nn::Cloneable<GroupNormImpl> {
 public:
  GroupNormImpl(int64_t num_groups, int64_t num_channels);
  explicit GroupNormImpl(const GroupNormOptions& options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);
  GroupNormOptions options;
  Tensor weight;
  Tensor bias;
};
TORCH_MODULE(GroupNorm);
class TORCH_API BilinearImpl : public torch::nn::Cloneable<BilinearImpl> {
 public:
  BilinearImpl(int64_t in1_features, int64_t in2_features, int64_t out_features);
  explicit BilinearImpl(const BilinearOptions& options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input1, const Tensor& input2);
  BilinearOptions options;
  Tensor weight;
  Tensor bias;
};
TORCH_MODULE(Bilinear);

template <size_t D, typename Derived>
class TORCH_API ConstantPadImpl : public torch::nn::Cloneable<Derived> {
 public:
  ConstantPadImpl(ExpandingArray<D * 2> padding, double value);
  explicit ConstantPadImpl(const ConstantPadOptions<D>& options_);
  void reset() override;
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override;
  ConstantPadOptions<D> options;
};
template <size_t D, typename Derived>
class TORCH_API ReplicationPadImpl : public torch::nn::Cloneable<Derived> {
 public:
  ReplicationPadImpl(ExpandingArray<D * 2> padding);
  explicit ReplicationPadImpl(const ReplicationPadOptions<D>& options_);
  void reset() override;
  Tensor forward(const Tensor& input);
  void pretty_print(std::ostream& stream) const override;
  ReplicationPadOptions<D> options;
};
#define GRADLINT_MODEL_PAD(Name, Base, D)                                         \
  class TORCH_API Name##Impl : public Base<D, Name##Impl> {                       \
   public:                                                                        \
    using Base<D, Name##Impl>::Base;                                              \
  };                                                                              \
  TORCH_MODULE(Name)
GRADLINT_MODEL_PAD(ConstantPad1d, ConstantPadImpl, 1);
GRADLINT_MODEL_PAD(ConstantPad2d, ConstantPadImpl, 2);
GRADLINT_MODEL_PAD(ConstantPad3d, ConstantPadImpl, 3);
GRADLINT_MODEL_PAD(ReplicationPad1d, ReplicationPadImpl, 1);
GRADLINT_MODEL_PAD(ReplicationPad2d, ReplicationPadImpl, 2);
GRADLINT_MODEL_PAD(ReplicationPad3d, ReplicationPadImpl, 3);
#undef GRADLINT_MODEL_PAD
#undef GRADLINT_MODEL_ND

// ---- recurrent ----
class TORCH_API RNNImpl : public detail::RNNImplBase<RNNImpl> {
 public:
  RNNImpl(int64_t input_size, int64_t hidden_size);
  explicit RNNImpl(const RNNOptions& options_);
  std::tuple<Tensor, Tensor> forward(const Tensor& input, Tensor hx = {});
  std::tuple<torch::nn::utils::rnn::PackedSequence, Tensor> forward_with_packed_input(
      const torch::nn::utils::rnn::PackedSequence& packed_input, Tensor hx = {});
  RNNOptions options;
};
TORCH_MODULE(RNN);
namespace detail {
template <typename Derived>
class TORCH_API RNNCellImplBase : public torch::nn::Cloneable<Derived> {
 public:
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor weight_ih;
  Tensor weight_hh;
  Tensor bias_ih;
  Tensor bias_hh;
};
} // namespace detail
#define GRADLINT_MODEL_CELL(Name, ...)                                        \
  class TORCH_API Name##Impl : public detail::RNNCellImplBase<Name##Impl> {      \
   public:                                                                        \
    Name##Impl(int64_t input_size, int64_t hidden_size);                          \
    explicit Name##Impl(const Name##Options& options_);                           \
    __VA_ARGS__;                                                                      \
    Name##Options options;                                                        \
  };                                                                              \
  TORCH_MODULE(Name)
GRADLINT_MODEL_CELL(RNNCell, Tensor forward(const Tensor& input, Tensor hx = {}));
GRADLINT_MODEL_CELL(LSTMCell, std::tuple<Tensor, Tensor> forward(const Tensor& input,
                                                                 torch::optional<std::tuple<Tensor, Tensor>> hx_opt = {}));
GRADLINT_MODEL_CELL(GRUCell, Tensor forward(const Tensor& input, Tensor hx = {}));
#undef GRADLINT_MODEL_CELL

// ---- attention ----
class TORCH_API MultiheadAttentionImpl : public torch::nn::Cloneable<MultiheadAttentionImpl> {
 public:
  MultiheadAttentionImpl(int64_t embed_dim, int64_t num_heads);
  explicit MultiheadAttentionImpl(const MultiheadAttentionOptions& options_);
  std::tuple<Tensor, Tensor> forward(const Tensor& query, const Tensor& key, const Tensor& value,
                                     const Tensor& key_padding_mask = {}, bool need_weights = true,
                                     const Tensor& attn_mask = {}, bool average_attn_weights = true);
  void reset() override;
  MultiheadAttentionOptions options;
  bool _qkv_same_embed_dim;
  Tensor in_proj_weight;
  Tensor in_proj_bias;
  Tensor bias_k;
  Tensor bias_v;
  Linear out_proj = nullptr;
  Tensor q_proj_weight;
  Tensor k_proj_weight;
  Tensor v_proj_weight;
  int64_t head_dim;
};
TORCH_MODULE(MultiheadAttention);

// ---- more losses ----
#define GRADLINT_MODEL_LOSS(Name, ...)                                        \
  struct TORCH_API Name##Impl : Cloneable<Name##Impl> {                           \
    explicit Name##Impl(Name##Options options_ = {});                             \
    void reset() override;                                                        \
    void pretty_print(std::ostream& stream) const override;                       \
    __VA_ARGS__;                                                                      \
    Name##Options options;                                                        \
  };                                                                              \
  TORCH_MODULE(Name)
GRADLINT_MODEL_LOSS(MarginRankingLoss, Tensor forward(const Tensor& input1, const Tensor& input2, const Tensor& targets));
GRADLINT_MODEL_LOSS(TripletMarginLoss, Tensor forward(const Tensor& anchor, const Tensor& positive, const Tensor& negative));
GRADLINT_MODEL_LOSS(CosineEmbeddingLoss, Tensor forward(const Tensor& input1, const Tensor& input2, const Tensor& target));
GRADLINT_MODEL_LOSS(SoftMarginLoss, Tensor forward(const Tensor& input, const Tensor& target));
GRADLINT_MODEL_LOSS(MultiLabelSoftMarginLoss, Tensor forward(const Tensor& input, const Tensor& target));
GRADLINT_MODEL_LOSS(MultiLabelMarginLoss, Tensor forward(const Tensor& input, const Tensor& target));
GRADLINT_MODEL_LOSS(MultiMarginLoss, Tensor forward(const Tensor& input, const Tensor& target));
GRADLINT_MODEL_LOSS(HingeEmbeddingLoss, Tensor forward(const Tensor& input, const Tensor& target));
GRADLINT_MODEL_LOSS(PoissonNLLLoss, Tensor forward(const Tensor& log_input, const Tensor& targets));
#undef GRADLINT_MODEL_LOSS
#undef GRADLINT_MODEL_ACTIVATION
#undef GRADLINT_MODEL_STATELESS
#undef GRADLINT_MODEL_WITH_ARGS

namespace functional {
using ELUFuncOptions = ELUOptions;
using SoftplusFuncOptions = SoftplusOptions;
using HardtanhFuncOptions = HardtanhOptions;
using SELUFuncOptions = SELUOptions;
using CELUFuncOptions = CELUOptions;
TORCH_API Tensor elu(Tensor input, const ELUFuncOptions& options = {});
TORCH_API Tensor selu(Tensor input, const SELUFuncOptions& options = {});
TORCH_API Tensor celu(Tensor input, const CELUFuncOptions& options = {});
TORCH_API Tensor hardtanh(Tensor input, const HardtanhFuncOptions& options = {});
TORCH_API Tensor softplus(const Tensor& input, const SoftplusFuncOptions& options = {});
TORCH_API Tensor softsign(const Tensor& input);
TORCH_API Tensor tanhshrink(const Tensor& input);
TORCH_API Tensor prelu(const Tensor& input, const Tensor& weight);
} // namespace functional

} // namespace nn
} // namespace torch
