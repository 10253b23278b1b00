#pragma once
// gradlint LibTorch API model: torch::nn module/functional options (LibTorch 1.13 names).
#include <torch/arg.h>
#include <torch/enum.h>
#include <torch/expanding_array.h>
#include <torch/types.h>
#include <string>
#include <tuple>
#include <vector>

#define TORCH_OPTIONS_CTOR_VARIANT_ARG3(OPTIONS_NAME, ARG_NAME, TYPE1, TYPE2, TYPE3) \
  OPTIONS_NAME() {}                                                                \
  OPTIONS_NAME(torch::enumtype::TYPE1 ARG_NAME) : ARG_NAME##_(torch::TYPE1) {}     \
  OPTIONS_NAME(torch::enumtype::TYPE2 ARG_NAME) : ARG_NAME##_(torch::TYPE2) {}     \
  OPTIONS_NAME(torch::enumtype::TYPE3 ARG_NAME) : ARG_NAME##_(torch::TYPE3) {}
// The model's own options (GRADLINT_MODEL_ARG, no data members) declare these constructors only.
#define GRADLINT_MODEL_OPTIONS_CTOR_VARIANT_ARG3(OPTIONS_NAME, ARG_NAME, TYPE1, TYPE2, TYPE3) \
  OPTIONS_NAME() {}                                                                       \
  OPTIONS_NAME(torch::enumtype::TYPE1 ARG_NAME);                                          \
  OPTIONS_NAME(torch::enumtype::TYPE2 ARG_NAME);                                          \
  OPTIONS_NAME(torch::enumtype::TYPE3 ARG_NAME);

namespace torch {
namespace nn {

// ---- linear / activation / dropout / normalization ----
struct TORCH_API LinearOptions {
  LinearOptions(int64_t in_features, int64_t out_features);
  GRADLINT_MODEL_ARG(int64_t, in_features);
  GRADLINT_MODEL_ARG(int64_t, out_features);
  GRADLINT_MODEL_ARG(bool, bias);  // = true
};
struct TORCH_API FlattenOptions {
  GRADLINT_MODEL_ARG(int64_t, start_dim);  // = 1
  GRADLINT_MODEL_ARG(int64_t, end_dim);  // = -1
};
struct TORCH_API ReLUOptions {
  /* implicit */ ReLUOptions(bool inplace = false);
  GRADLINT_MODEL_ARG(bool, inplace);
};
struct TORCH_API LeakyReLUOptions {
  GRADLINT_MODEL_ARG(double, negative_slope);  // = 1e-2
  GRADLINT_MODEL_ARG(bool, inplace);  // = false
};
struct TORCH_API GELUOptions {
  GRADLINT_MODEL_ARG(std::string, approximate);  // = "none"
};
struct TORCH_API SoftmaxOptions {
  SoftmaxOptions(int64_t dim);
  GRADLINT_MODEL_ARG(int64_t, dim);
};
struct TORCH_API LogSoftmaxOptions {
  LogSoftmaxOptions(int64_t dim);
  GRADLINT_MODEL_ARG(int64_t, dim);
};
struct TORCH_API DropoutOptions {
  /* implicit */ DropoutOptions(double p = 0.5);
  GRADLINT_MODEL_ARG(double, p);  // = 0.5
  GRADLINT_MODEL_ARG(bool, inplace);  // = false
};
using Dropout2dOptions = DropoutOptions;
using Dropout3dOptions = DropoutOptions;
struct TORCH_API BatchNormOptions {
  /* implicit */ BatchNormOptions(int64_t num_features);
  GRADLINT_MODEL_ARG(int64_t, num_features);
  GRADLINT_MODEL_ARG(double, eps);  // = 1e-5
  GRADLINT_MODEL_ARG(c10::optional<double>, momentum);  // = 0.1
  GRADLINT_MODEL_ARG(bool, affine);  // = true
  GRADLINT_MODEL_ARG(bool, track_running_stats);  // = true
};
using BatchNorm1dOptions = BatchNormOptions;
using BatchNorm2dOptions = BatchNormOptions;
using BatchNorm3dOptions = BatchNormOptions;
struct TORCH_API LayerNormOptions {
  /* implicit */ LayerNormOptions(std::vector<int64_t> normalized_shape);
  GRADLINT_MODEL_ARG(std::vector<int64_t>, normalized_shape);
  GRADLINT_MODEL_ARG(double, eps);  // = 1e-5
  GRADLINT_MODEL_ARG(bool, elementwise_affine);  // = true
};
struct TORCH_API EmbeddingOptions {
  EmbeddingOptions(int64_t num_embeddings, int64_t embedding_dim);
  GRADLINT_MODEL_ARG(int64_t, num_embeddings);
  GRADLINT_MODEL_ARG(int64_t, embedding_dim);
  GRADLINT_MODEL_ARG(c10::optional<int64_t>, padding_idx);  // = c10::nullopt
  GRADLINT_MODEL_ARG(c10::optional<double>, max_norm);  // = c10::nullopt
  GRADLINT_MODEL_ARG(double, norm_type);  // = 2.
  GRADLINT_MODEL_ARG(bool, scale_grad_by_freq);  // = false
  GRADLINT_MODEL_ARG(bool, sparse);  // = false
  GRADLINT_MODEL_ARG(torch::Tensor, _weight);  // = Tensor()
};
struct TORCH_API EmbeddingFromPretrainedOptions {
  GRADLINT_MODEL_ARG(bool, freeze);  // = true
  GRADLINT_MODEL_ARG(c10::optional<int64_t>, padding_idx);  // = c10::nullopt
  GRADLINT_MODEL_ARG(c10::optional<double>, max_norm);  // = c10::nullopt
  GRADLINT_MODEL_ARG(double, norm_type);  // = 2.
  GRADLINT_MODEL_ARG(bool, scale_grad_by_freq);  // = false
  GRADLINT_MODEL_ARG(bool, sparse);  // = false
};

// ---- conv / pooling ----
namespace detail {
typedef c10::variant<enumtype::kZeros, enumtype::kReflect, enumtype::kReplicate, enumtype::kCircular>
    conv_padding_mode_t;
template <size_t D>
struct ConvNdOptions {
  using padding_t = c10::variant<ExpandingArray<D>, enumtype::kValid, enumtype::kSame>;
  ConvNdOptions(int64_t in_channels, int64_t out_channels, ExpandingArray<D> kernel_size);
  GRADLINT_MODEL_ARG(int64_t, in_channels);
  GRADLINT_MODEL_ARG(int64_t, out_channels);
  GRADLINT_MODEL_ARG(ExpandingArray<D>, kernel_size);
  GRADLINT_MODEL_ARG(ExpandingArray<D>, stride);  // = 1
  GRADLINT_MODEL_ARG(padding_t, padding);  // = 0

 public:
  decltype(auto) padding(std::initializer_list<int64_t> il) { return padding(ExpandingArray<D>(il)); }
  GRADLINT_MODEL_ARG(ExpandingArray<D>, output_padding);  // = 0
  GRADLINT_MODEL_ARG(ExpandingArray<D>, dilation);  // = 1
  GRADLINT_MODEL_ARG(bool, transposed);  // = false
  GRADLINT_MODEL_ARG(int64_t, groups);  // = 1
  GRADLINT_MODEL_ARG(bool, bias);  // = true  GRADLINT_MODEL_ARG(conv_padding_mode_t, padding_mode);  // = torch::kZeros
};
} // namespace detail
template <size_t D>
struct ConvOptions {
  using padding_t = typename detail::ConvNdOptions<D>::padding_t;
  using padding_mode_t = detail::conv_padding_mode_t;
  ConvOptions(int64_t in_channels, int64_t out_channels, ExpandingArray<D> kernel_size);
  GRADLINT_MODEL_ARG(int64_t, in_channels);
  GRADLINT_MODEL_ARG(int64_t, out_channels);
  GRADLINT_MODEL_ARG(ExpandingArray<D>, kernel_size);
  GRADLINT_MODEL_ARG(ExpandingArray<D>, stride);  // = 1
  GRADLINT_MODEL_ARG(padding_t, padding);  // = 0

 public:
  decltype(auto) padding(std::initializer_list<int64_t> il) { return padding(ExpandingArray<D>(il)); }
  GRADLINT_MODEL_ARG(ExpandingArray<D>, dilation);  // = 1
  GRADLINT_MODEL_ARG(int64_t, groups);  // = 1
  GRADLINT_MODEL_ARG(bool, bias);  // = true
  GRADLINT_MODEL_ARG(padding_mode_t, padding_mode);  // = torch::kZeros
};
using Conv1dOptions = ConvOptions<1>;
using Conv2dOptions = ConvOptions<2>;
using Conv3dOptions = ConvOptions<3>;

template <size_t D>
struct MaxPoolOptions {
  MaxPoolOptions(ExpandingArray<D> kernel_size);
  GRADLINT_MODEL_ARG(ExpandingArray<D>, kernel_size);
  GRADLINT_MODEL_ARG(ExpandingArray<D>, stride);
  GRADLINT_MODEL_ARG(ExpandingArray<D>, padding);  // = 0
  GRADLINT_MODEL_ARG(ExpandingArray<D>, dilation);  // = 1
  GRADLINT_MODEL_ARG(bool, ceil_mode);  // = false
};
using MaxPool1dOptions = MaxPoolOptions<1>;
using MaxPool2dOptions = MaxPoolOptions<2>;
using MaxPool3dOptions = MaxPoolOptions<3>;
template <size_t D>
struct AvgPoolOptions {
  AvgPoolOptions(ExpandingArray<D> kernel_size);
  GRADLINT_MODEL_ARG(ExpandingArray<D>, kernel_size);
  GRADLINT_MODEL_ARG(ExpandingArray<D>, stride);
  GRADLINT_MODEL_ARG(ExpandingArray<D>, padding);  // = 0
  GRADLINT_MODEL_ARG(bool, ceil_mode);  // = false
  GRADLINT_MODEL_ARG(bool, count_include_pad);  // = true
  GRADLINT_MODEL_ARG(c10::optional<int64_t>, divisor_override);  // = c10::nullopt
};
using AvgPool1dOptions = AvgPoolOptions<1>;
using AvgPool2dOptions = AvgPoolOptions<2>;
template <size_t D, typename output_size_t>
struct AdaptiveAvgPoolOptions {
  AdaptiveAvgPoolOptions(output_size_t output_size);
  GRADLINT_MODEL_ARG(output_size_t, output_size);
};
using AdaptiveAvgPool2dOptions = AdaptiveAvgPoolOptions<2, ExpandingArrayWithOptionalElem<2>>;

// ---- recurrent ----
struct TORCH_API LSTMOptions {
  LSTMOptions(int64_t input_size, int64_t hidden_size);
  GRADLINT_MODEL_ARG(int64_t, input_size);
  GRADLINT_MODEL_ARG(int64_t, hidden_size);
  GRADLINT_MODEL_ARG(int64_t, num_layers);  // = 1
  GRADLINT_MODEL_ARG(bool, bias);  // = true
  GRADLINT_MODEL_ARG(bool, batch_first);  // = false
  GRADLINT_MODEL_ARG(double, dropout);  // = 0.0
  GRADLINT_MODEL_ARG(bool, bidirectional);  // = false
  GRADLINT_MODEL_ARG(int64_t, proj_size);  // = 0
};
struct TORCH_API GRUOptions {
  GRUOptions(int64_t input_size, int64_t hidden_size);
  GRADLINT_MODEL_ARG(int64_t, input_size);
  GRADLINT_MODEL_ARG(int64_t, hidden_size);
  GRADLINT_MODEL_ARG(int64_t, num_layers);  // = 1
  GRADLINT_MODEL_ARG(bool, bias);  // = true
  GRADLINT_MODEL_ARG(bool, batch_first);  // = false
  GRADLINT_MODEL_ARG(double, dropout);  // = 0.0
  GRADLINT_MODEL_ARG(bool, bidirectional);  // = false
};

// ---- losses ----
struct TORCH_API L1LossOptions {
  typedef c10::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum> reduction_t;
  GRADLINT_MODEL_OPTIONS_CTOR_VARIANT_ARG3(L1LossOptions, reduction, kNone, kMean, kSum)
  GRADLINT_MODEL_ARG(reduction_t, reduction);  // = torch::kMean
};
struct TORCH_API KLDivLossOptions {
  typedef c10::variant<enumtype::kNone, enumtype::kBatchMean, enumtype::kSum, enumtype::kMean> reduction_t;
  KLDivLossOptions() {}
  KLDivLossOptions(torch::enumtype::kNone reduction);
  KLDivLossOptions(torch::enumtype::kBatchMean reduction);
  KLDivLossOptions(torch::enumtype::kSum reduction);
  KLDivLossOptions(torch::enumtype::kMean reduction);
  GRADLINT_MODEL_ARG(reduction_t, reduction);  // = torch::kMean
  GRADLINT_MODEL_ARG(bool, log_target);  // = false
};
struct TORCH_API MSELossOptions {
  typedef c10::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum> reduction_t;
  GRADLINT_MODEL_OPTIONS_CTOR_VARIANT_ARG3(MSELossOptions, reduction, kNone, kMean, kSum)
  GRADLINT_MODEL_ARG(reduction_t, reduction);  // = torch::kMean
};
struct TORCH_API BCELossOptions {
  typedef c10::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum> reduction_t;
  GRADLINT_MODEL_ARG(Tensor, weight);  // = {}
  GRADLINT_MODEL_ARG(reduction_t, reduction);  // = torch::kMean
};
struct TORCH_API SmoothL1LossOptions {
  typedef c10::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum> reduction_t;
  GRADLINT_MODEL_OPTIONS_CTOR_VARIANT_ARG3(SmoothL1LossOptions, reduction, kNone, kMean, kSum)
  GRADLINT_MODEL_ARG(reduction_t, reduction);  // = torch::kMean
  GRADLINT_MODEL_ARG(double, beta);  // = 1.0
};
struct TORCH_API HuberLossOptions {
  typedef c10::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum> reduction_t;
  GRADLINT_MODEL_OPTIONS_CTOR_VARIANT_ARG3(HuberLossOptions, reduction, kNone, kMean, kSum)
  GRADLINT_MODEL_ARG(reduction_t, reduction);  // = torch::kMean
  GRADLINT_MODEL_ARG(double, delta);  // = 1.0
};
struct TORCH_API NLLLossOptions {
  typedef c10::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum> reduction_t;
  GRADLINT_MODEL_ARG(Tensor, weight);  // = {}
  GRADLINT_MODEL_ARG(int64_t, ignore_index);  // = -100
  GRADLINT_MODEL_ARG(reduction_t, reduction);  // = torch::kMean
};
struct TORCH_API CrossEntropyLossOptions {
  typedef c10::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum> reduction_t;
  GRADLINT_MODEL_ARG(Tensor, weight);  // = {}
  GRADLINT_MODEL_ARG(int64_t, ignore_index);  // = -100
  GRADLINT_MODEL_ARG(reduction_t, reduction);  // = torch::kMean
  GRADLINT_MODEL_ARG(double, label_smoothing);  // = 0.0
};
struct TORCH_API BCEWithLogitsLossOptions {
  typedef c10::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum> reduction_t;
  GRADLINT_MODEL_ARG(Tensor, weight);  // = {}
  GRADLINT_MODEL_ARG(reduction_t, reduction);  // = torch::kMean
  GRADLINT_MODEL_ARG(Tensor, pos_weight);  // = {}
};

namespace functional {
using L1LossFuncOptions = L1LossOptions;
using KLDivFuncOptions = KLDivLossOptions;
using MSELossFuncOptions = MSELossOptions;
using BinaryCrossEntropyFuncOptions = BCELossOptions;
using SmoothL1LossFuncOptions = SmoothL1LossOptions;
using HuberLossFuncOptions = HuberLossOptions;
using NLLLossFuncOptions = NLLLossOptions;
using CrossEntropyFuncOptions = CrossEntropyLossOptions;
using BinaryCrossEntropyWithLogitsFuncOptions = BCEWithLogitsLossOptions;
using ReLUFuncOptions = ReLUOptions;
using LeakyReLUFuncOptions = LeakyReLUOptions;
using GELUFuncOptions = GELUOptions;
struct TORCH_API SoftmaxFuncOptions {
  SoftmaxFuncOptions(int64_t dim);
  GRADLINT_MODEL_ARG(int64_t, dim);
  GRADLINT_MODEL_ARG(c10::optional<torch::Dtype>, dtype);  // = c10::nullopt
};
struct TORCH_API LogSoftmaxFuncOptions {
  LogSoftmaxFuncOptions(int64_t dim);
  GRADLINT_MODEL_ARG(int64_t, dim);
  GRADLINT_MODEL_ARG(c10::optional<torch::Dtype>, dtype);  // = c10::nullopt
};
struct TORCH_API DropoutFuncOptions {
  GRADLINT_MODEL_ARG(double, p);  // = 0.5
  GRADLINT_MODEL_ARG(bool, training);  // = true
  GRADLINT_MODEL_ARG(bool, inplace);  // = false
};
struct TORCH_API NormalizeFuncOptions {
  GRADLINT_MODEL_ARG(double, p);  // = 2.0
  GRADLINT_MODEL_ARG(int64_t, dim);  // = 1
  GRADLINT_MODEL_ARG(double, eps);  // = 1e-12
  GRADLINT_MODEL_ARG(c10::optional<Tensor>, out);  // = c10::nullopt
};
struct TORCH_API LayerNormFuncOptions {
  /* implicit */ LayerNormFuncOptions(std::vector<int64_t> normalized_shape);
  GRADLINT_MODEL_ARG(std::vector<int64_t>, normalized_shape);
  GRADLINT_MODEL_ARG(Tensor, weight);  // = {}
  GRADLINT_MODEL_ARG(Tensor, bias);  // = {}
  GRADLINT_MODEL_ARG(double, eps);  // = 1e-5
};
using MaxPool2dFuncOptions = MaxPool2dOptions;
using AvgPool2dFuncOptions = AvgPool2dOptions;
using AdaptiveAvgPool2dFuncOptions = AdaptiveAvgPool2dOptions;
template <size_t D>
struct ConvFuncOptions {
  using padding_t = typename torch::nn::detail::ConvNdOptions<D>::padding_t;
  GRADLINT_MODEL_ARG(torch::Tensor, bias);  // = Tensor()
  GRADLINT_MODEL_ARG(ExpandingArray<D>, stride);  // = 1
  GRADLINT_MODEL_ARG(padding_t, padding);  // = 0
  GRADLINT_MODEL_ARG(ExpandingArray<D>, dilation);  // = 1
  GRADLINT_MODEL_ARG(int64_t, groups);  // = 1
};
using Conv1dFuncOptions = ConvFuncOptions<1>;
using Conv2dFuncOptions = ConvFuncOptions<2>;
struct TORCH_API EmbeddingFuncOptions {
  GRADLINT_MODEL_ARG(c10::optional<int64_t>, padding_idx);  // = c10::nullopt
  GRADLINT_MODEL_ARG(c10::optional<double>, max_norm);  // = c10::nullopt
  GRADLINT_MODEL_ARG(double, norm_type);  // = 2.
  GRADLINT_MODEL_ARG(bool, scale_grad_by_freq);  // = false
  GRADLINT_MODEL_ARG(bool, sparse);  // = false
};
} // namespace functional
} // namespace nn
} // namespace torch
