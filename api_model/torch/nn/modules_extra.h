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
#undef GRADLINT_MODEL_ACTIVATION

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
#undef GRADLINT_MODEL_STATELESS

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
class InstanceNormImpl : public torch::nn::detail::NormImplBase<D, Derived, InstanceNormOptions> {
 public:
  using torch::nn::detail::NormImplBase<D, Derived, InstanceNormOptions>::NormImplBase;
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
