#pragma once
// gradlint LibTorch API model: torch::nn::functional (LibTorch 1.13 public signatures).
#include <torch/nn/options.h>
#include <torch/types.h>
#include <tuple>
#include <vector>

namespace torch {
namespace nn {
namespace functional {
TORCH_API Tensor leaky_relu(Tensor input, const LeakyReLUFuncOptions& options = {});
TORCH_API Tensor logsigmoid(const Tensor& input);
TORCH_API Tensor softmax(const Tensor& input, const SoftmaxFuncOptions& options);
TORCH_API Tensor log_softmax(const Tensor& input, const LogSoftmaxFuncOptions& options);
TORCH_API Tensor gelu(const Tensor& input, const GELUFuncOptions& options = {});
TORCH_API Tensor silu(const Tensor& input);
TORCH_API Tensor mish(const Tensor& input);
TORCH_API Tensor relu(Tensor input, const ReLUFuncOptions& options = {});
TORCH_API Tensor conv1d(const Tensor& input, const Tensor& weight, const Conv1dFuncOptions& options = {});
TORCH_API Tensor conv2d(const Tensor& input, const Tensor& weight, const Conv2dFuncOptions& options = {});
TORCH_API Tensor dropout(Tensor input, const DropoutFuncOptions& options = {});
TORCH_API Tensor one_hot(const Tensor& tensor, int64_t num_classes = -1);
TORCH_API Tensor embedding(const Tensor& input, const Tensor& weight, const EmbeddingFuncOptions& options = {});
TORCH_API Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = {});
TORCH_API Tensor l1_loss(const Tensor& input, const Tensor& target, const L1LossFuncOptions& options = {});
TORCH_API Tensor kl_div(const Tensor& input, const Tensor& target, const KLDivFuncOptions& options = {});
TORCH_API Tensor mse_loss(const Tensor& input, const Tensor& target, const MSELossFuncOptions& options = {});
TORCH_API Tensor binary_cross_entropy(const Tensor& input, const Tensor& target, const BinaryCrossEntropyFuncOptions& options = {});
TORCH_API Tensor smooth_l1_loss(const Tensor& input, const Tensor& target, const SmoothL1LossFuncOptions& options = {}, double beta = 1.);
TORCH_API Tensor huber_loss(const Tensor& input, const Tensor& target, const HuberLossFuncOptions& options = {});
TORCH_API Tensor nll_loss(const Tensor& input, const Tensor& target, const NLLLossFuncOptions& options = {});
TORCH_API Tensor cross_entropy(const Tensor& input, const Tensor& target, const CrossEntropyFuncOptions& options = {});
TORCH_API Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target, const BinaryCrossEntropyWithLogitsFuncOptions& options = {});
TORCH_API Tensor normalize(const Tensor& input, NormalizeFuncOptions options = {});
TORCH_API Tensor layer_norm(const Tensor& input, const LayerNormFuncOptions& options);
TORCH_API Tensor avg_pool2d(const Tensor& input, const AvgPool2dFuncOptions& options);
TORCH_API Tensor max_pool2d(const Tensor& input, const MaxPool2dFuncOptions& options);
TORCH_API Tensor adaptive_avg_pool2d(const Tensor& input, const AdaptiveAvgPool2dFuncOptions& options);
} // namespace functional
} // namespace nn
} // namespace torch
