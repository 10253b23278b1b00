#pragma once
// gradlint LibTorch API model: at:: operator functions (signatures of LibTorch 1.13.1,
// curated subset; Dimname/SymInt overloads omitted).
#include <ATen/core/Tensor.h>
#include <ATen/core/Generator.h>
#include <ATen/core/Reduction.h>

#include <tuple>
#include <vector>

namespace at {
TORCH_API at::Tensor abs(const at::Tensor& self);
TORCH_API at::Tensor add(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha=1);
TORCH_API at::Tensor add(const at::Tensor& self, const at::Scalar& other, const at::Scalar& alpha=1);
TORCH_API at::Tensor addmm(const at::Tensor& self, const at::Tensor& mat1, const at::Tensor& mat2, const at::Scalar& beta=1, const at::Scalar& alpha=1);
TORCH_API at::Tensor all(const at::Tensor& self, int64_t dim, bool keepdim=false);
TORCH_API at::Tensor all(const at::Tensor& self);
TORCH_API at::Tensor any(const at::Tensor& self, int64_t dim, bool keepdim=false);
TORCH_API at::Tensor any(const at::Tensor& self);
TORCH_API at::Tensor arange(const at::Scalar& end, at::TensorOptions options={});
TORCH_API at::Tensor arange(const at::Scalar& end, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor arange(const at::Scalar& start, const at::Scalar& end, at::TensorOptions options={});
TORCH_API at::Tensor arange(const at::Scalar& start, const at::Scalar& end, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor arange(const at::Scalar& start, const at::Scalar& end, const at::Scalar& step, at::TensorOptions options={});
TORCH_API at::Tensor arange(const at::Scalar& start, const at::Scalar& end, const at::Scalar& step, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor argmax(const at::Tensor& self, c10::optional<int64_t> dim={}, bool keepdim=false);
TORCH_API at::Tensor argmin(const at::Tensor& self, c10::optional<int64_t> dim={}, bool keepdim=false);
TORCH_API at::Tensor avg_pool2d(const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride={}, at::IntArrayRef padding=0, bool ceil_mode=false, bool count_include_pad=true, c10::optional<int64_t> divisor_override={});
TORCH_API at::Tensor batch_norm(const at::Tensor& input, const c10::optional<at::Tensor> & weight, const c10::optional<at::Tensor> & bias, const c10::optional<at::Tensor> & running_mean, const c10::optional<at::Tensor> & running_var, bool training, double momentum, double eps, bool cudnn_enabled);
TORCH_API at::Tensor binary_cross_entropy(const at::Tensor& self, const at::Tensor& target, const c10::optional<at::Tensor> & weight={}, int64_t reduction=at::Reduction::Mean);
TORCH_API at::Tensor binary_cross_entropy_with_logits(const at::Tensor& self, const at::Tensor& target, const c10::optional<at::Tensor> & weight={}, const c10::optional<at::Tensor> & pos_weight={}, int64_t reduction=at::Reduction::Mean);
TORCH_API at::Tensor bmm(const at::Tensor& self, const at::Tensor& mat2);
TORCH_API at::Tensor cat(const at::ITensorListRef & tensors, int64_t dim=0);
TORCH_API ::std::vector<at::Tensor> chunk(const at::Tensor& self, int64_t chunks, int64_t dim=0);
TORCH_API at::Tensor clamp(const at::Tensor& self, const c10::optional<at::Scalar> & min, const c10::optional<at::Scalar> & max={});
TORCH_API at::Tensor clamp(const at::Tensor& self, const c10::optional<at::Tensor> & min={}, const c10::optional<at::Tensor> & max={});
TORCH_API at::Tensor clip(const at::Tensor& self, const c10::optional<at::Scalar> & min, const c10::optional<at::Scalar> & max={});
TORCH_API at::Tensor clip(const at::Tensor& self, const c10::optional<at::Tensor> & min={}, const c10::optional<at::Tensor> & max={});
TORCH_API at::Tensor clone(const at::Tensor& self, c10::optional<at::MemoryFormat> memory_format={});
TORCH_API at::Tensor conv1d(const at::Tensor& input, const at::Tensor& weight, const c10::optional<at::Tensor> & bias={}, at::IntArrayRef stride=1, at::IntArrayRef padding=0, at::IntArrayRef dilation=1, int64_t groups=1);
TORCH_API at::Tensor conv1d(const at::Tensor& input, const at::Tensor& weight, const c10::optional<at::Tensor> & bias, at::IntArrayRef stride, c10::string_view padding, at::IntArrayRef dilation=1, int64_t groups=1);
TORCH_API at::Tensor conv2d(const at::Tensor& input, const at::Tensor& weight, const c10::optional<at::Tensor> & bias={}, at::IntArrayRef stride=1, at::IntArrayRef padding=0, at::IntArrayRef dilation=1, int64_t groups=1);
TORCH_API at::Tensor conv2d(const at::Tensor& input, const at::Tensor& weight, const c10::optional<at::Tensor> & bias, at::IntArrayRef stride, c10::string_view padding, at::IntArrayRef dilation=1, int64_t groups=1);
TORCH_API at::Tensor cos(const at::Tensor& self);
TORCH_API at::Tensor cross_entropy_loss(const at::Tensor& self, const at::Tensor& target, const c10::optional<at::Tensor> & weight={}, int64_t reduction=at::Reduction::Mean, int64_t ignore_index=-100, double label_smoothing=0.0);
TORCH_API at::Tensor cumsum(const at::Tensor& self, int64_t dim, c10::optional<at::ScalarType> dtype={});
TORCH_API at::Tensor diag(const at::Tensor& self, int64_t diagonal=0);
TORCH_API at::Tensor div(const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor div(const at::Tensor& self, const at::Tensor& other, c10::optional<c10::string_view> rounding_mode);
TORCH_API at::Tensor div(const at::Tensor& self, const at::Scalar& other);
TORCH_API at::Tensor div(const at::Tensor& self, const at::Scalar& other, c10::optional<c10::string_view> rounding_mode);
TORCH_API at::Tensor dot(const at::Tensor& self, const at::Tensor& tensor);
TORCH_API at::Tensor dropout(const at::Tensor& input, double p, bool train);
TORCH_API at::Tensor embedding(const at::Tensor& weight, const at::Tensor& indices, int64_t padding_idx=-1, bool scale_grad_by_freq=false, bool sparse=false);
TORCH_API at::Tensor empty(at::IntArrayRef size, at::TensorOptions options={}, c10::optional<at::MemoryFormat> memory_format={});
TORCH_API at::Tensor empty(at::IntArrayRef size, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory, c10::optional<at::MemoryFormat> memory_format);
TORCH_API at::Tensor empty_like(const at::Tensor& self, at::TensorOptions options={}, c10::optional<at::MemoryFormat> memory_format={});
TORCH_API at::Tensor empty_like(const at::Tensor& self, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory, c10::optional<at::MemoryFormat> memory_format);
TORCH_API at::Tensor eq(const at::Tensor& self, const at::Scalar& other);
TORCH_API at::Tensor eq(const at::Tensor& self, const at::Tensor& other);
TORCH_API bool equal(const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor exp(const at::Tensor& self);
TORCH_API at::Tensor eye(int64_t n, at::TensorOptions options={});
TORCH_API at::Tensor eye(int64_t n, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor eye(int64_t n, int64_t m, at::TensorOptions options={});
TORCH_API at::Tensor eye(int64_t n, int64_t m, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor flatten(const at::Tensor& self, int64_t start_dim=0, int64_t end_dim=-1);
TORCH_API at::Tensor full(at::IntArrayRef size, const at::Scalar& fill_value, at::TensorOptions options={});
TORCH_API at::Tensor full(at::IntArrayRef size, const at::Scalar& fill_value, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor full_like(const at::Tensor& self, const at::Scalar& fill_value, at::TensorOptions options={}, c10::optional<at::MemoryFormat> memory_format={});
TORCH_API at::Tensor full_like(const at::Tensor& self, const at::Scalar& fill_value, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory, c10::optional<at::MemoryFormat> memory_format);
TORCH_API at::Tensor gather(const at::Tensor& self, int64_t dim, const at::Tensor& index, bool sparse_grad=false);
TORCH_API at::Tensor ge(const at::Tensor& self, const at::Scalar& other);
TORCH_API at::Tensor ge(const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor gelu(const at::Tensor& self, c10::string_view approximate="none");
TORCH_API at::Tensor gt(const at::Tensor& self, const at::Scalar& other);
TORCH_API at::Tensor gt(const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor hinge_embedding_loss(const at::Tensor& self, const at::Tensor& target, double margin=1.0, int64_t reduction=at::Reduction::Mean);
TORCH_API at::Tensor huber_loss(const at::Tensor& self, const at::Tensor& target, int64_t reduction=at::Reduction::Mean, double delta=1.0);
TORCH_API at::Tensor isclose(const at::Tensor& self, const at::Tensor& other, double rtol=1e-05, double atol=1e-08, bool equal_nan=false);
TORCH_API at::Tensor isfinite(const at::Tensor& self);
TORCH_API at::Tensor isinf(const at::Tensor& self);
TORCH_API at::Tensor isnan(const at::Tensor& self);
TORCH_API at::Tensor kl_div(const at::Tensor& self, const at::Tensor& target, int64_t reduction=at::Reduction::Mean, bool log_target=false);
TORCH_API at::Tensor l1_loss(const at::Tensor& self, const at::Tensor& target, int64_t reduction=at::Reduction::Mean);
TORCH_API at::Tensor layer_norm(const at::Tensor& input, at::IntArrayRef normalized_shape, const c10::optional<at::Tensor> & weight={}, const c10::optional<at::Tensor> & bias={}, double eps=1e-05, bool cudnn_enable=true);
TORCH_API at::Tensor le(const at::Tensor& self, const at::Scalar& other);
TORCH_API at::Tensor le(const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor leaky_relu(const at::Tensor& self, const at::Scalar& negative_slope=0.01);
TORCH_API at::Tensor linear(const at::Tensor& input, const at::Tensor& weight, const c10::optional<at::Tensor> & bias={});
TORCH_API at::Tensor linspace(const at::Scalar& start, const at::Scalar& end, int64_t steps, at::TensorOptions options={});
TORCH_API at::Tensor linspace(const at::Scalar& start, const at::Scalar& end, int64_t steps, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor log(const at::Tensor& self);
TORCH_API at::Tensor log_softmax(const at::Tensor& self, int64_t dim, c10::optional<at::ScalarType> dtype={});
TORCH_API at::Tensor logsumexp(const at::Tensor& self, at::IntArrayRef dim, bool keepdim=false);
TORCH_API at::Tensor lt(const at::Tensor& self, const at::Scalar& other);
TORCH_API at::Tensor lt(const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor margin_ranking_loss(const at::Tensor& input1, const at::Tensor& input2, const at::Tensor& target, double margin=0.0, int64_t reduction=at::Reduction::Mean);
TORCH_API at::Tensor matmul(const at::Tensor& self, const at::Tensor& other);
TORCH_API ::std::tuple<at::Tensor,at::Tensor> max(const at::Tensor& self, int64_t dim, bool keepdim=false);
TORCH_API at::Tensor max(const at::Tensor& self);
TORCH_API at::Tensor max(const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor max_pool2d(const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride={}, at::IntArrayRef padding=0, at::IntArrayRef dilation=1, bool ceil_mode=false);
TORCH_API at::Tensor maximum(const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor mean(const at::Tensor& self, c10::optional<at::ScalarType> dtype={});
TORCH_API at::Tensor mean(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim=false, c10::optional<at::ScalarType> dtype={});
TORCH_API ::std::tuple<at::Tensor,at::Tensor> min(const at::Tensor& self, int64_t dim, bool keepdim=false);
TORCH_API at::Tensor min(const at::Tensor& self);
TORCH_API at::Tensor min(const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor minimum(const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor mm(const at::Tensor& self, const at::Tensor& mat2);
TORCH_API at::Tensor mse_loss(const at::Tensor& self, const at::Tensor& target, int64_t reduction=at::Reduction::Mean);
TORCH_API at::Tensor mul(const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor mul(const at::Tensor& self, const at::Scalar& other);
TORCH_API at::Tensor ne(const at::Tensor& self, const at::Scalar& other);
TORCH_API at::Tensor ne(const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor neg(const at::Tensor& self);
TORCH_API at::Tensor nll_loss(const at::Tensor& self, const at::Tensor& target, const c10::optional<at::Tensor> & weight={}, int64_t reduction=at::Reduction::Mean, int64_t ignore_index=-100);
TORCH_API at::Tensor norm(const at::Tensor& self, const c10::optional<at::Scalar> & p, at::ScalarType dtype);
TORCH_API at::Tensor norm(const at::Tensor& self, const at::Scalar& p=2);
TORCH_API at::Tensor norm(const at::Tensor& self, const c10::optional<at::Scalar> & p, at::IntArrayRef dim, bool keepdim, at::ScalarType dtype);
TORCH_API at::Tensor norm(const at::Tensor& self, const c10::optional<at::Scalar> & p, at::IntArrayRef dim, bool keepdim=false);
TORCH_API at::Tensor ones(at::IntArrayRef size, at::TensorOptions options={});
TORCH_API at::Tensor ones(at::IntArrayRef size, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor ones_like(const at::Tensor& self, at::TensorOptions options={}, c10::optional<at::MemoryFormat> memory_format={});
TORCH_API at::Tensor ones_like(const at::Tensor& self, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory, c10::optional<at::MemoryFormat> memory_format);
TORCH_API at::Tensor outer(const at::Tensor& self, const at::Tensor& vec2);
TORCH_API at::Tensor pow(const at::Tensor& self, const at::Tensor& exponent);
TORCH_API at::Tensor pow(const at::Scalar& self, const at::Tensor& exponent);
TORCH_API at::Tensor pow(const at::Tensor& self, const at::Scalar& exponent);
TORCH_API at::Tensor rand(at::IntArrayRef size, at::TensorOptions options={});
TORCH_API at::Tensor rand(at::IntArrayRef size, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor rand(at::IntArrayRef size, c10::optional<at::Generator> generator, at::TensorOptions options={});
TORCH_API at::Tensor rand(at::IntArrayRef size, c10::optional<at::Generator> generator, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor rand_like(const at::Tensor& self, at::TensorOptions options={}, c10::optional<at::MemoryFormat> memory_format={});
TORCH_API at::Tensor rand_like(const at::Tensor& self, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory, c10::optional<at::MemoryFormat> memory_format);
TORCH_API at::Tensor randint(int64_t high, at::IntArrayRef size, at::TensorOptions options=at::kLong);
TORCH_API at::Tensor randint(int64_t high, at::IntArrayRef size, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor randint(int64_t high, at::IntArrayRef size, c10::optional<at::Generator> generator, at::TensorOptions options=at::kLong);
TORCH_API at::Tensor randint(int64_t high, at::IntArrayRef size, c10::optional<at::Generator> generator, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor randint(int64_t low, int64_t high, at::IntArrayRef size, at::TensorOptions options=at::kLong);
TORCH_API at::Tensor randint(int64_t low, int64_t high, at::IntArrayRef size, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor randint(int64_t low, int64_t high, at::IntArrayRef size, c10::optional<at::Generator> generator, at::TensorOptions options=at::kLong);
TORCH_API at::Tensor randint(int64_t low, int64_t high, at::IntArrayRef size, c10::optional<at::Generator> generator, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor randn(at::IntArrayRef size, at::TensorOptions options={});
TORCH_API at::Tensor randn(at::IntArrayRef size, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor randn(at::IntArrayRef size, c10::optional<at::Generator> generator, at::TensorOptions options={});
TORCH_API at::Tensor randn(at::IntArrayRef size, c10::optional<at::Generator> generator, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor randn_like(const at::Tensor& self, at::TensorOptions options={}, c10::optional<at::MemoryFormat> memory_format={});
TORCH_API at::Tensor randn_like(const at::Tensor& self, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory, c10::optional<at::MemoryFormat> memory_format);
TORCH_API at::Tensor randperm(int64_t n, at::TensorOptions options=at::kLong);
TORCH_API at::Tensor randperm(int64_t n, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor randperm(int64_t n, c10::optional<at::Generator> generator, at::TensorOptions options=at::kLong);
TORCH_API at::Tensor randperm(int64_t n, c10::optional<at::Generator> generator, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor relu(const at::Tensor& self);
TORCH_API at::Tensor reshape(const at::Tensor& self, at::IntArrayRef shape);
TORCH_API at::Tensor sigmoid(const at::Tensor& self);
TORCH_API at::Tensor sign(const at::Tensor& self);
TORCH_API at::Tensor sin(const at::Tensor& self);
TORCH_API at::Tensor smooth_l1_loss(const at::Tensor& self, const at::Tensor& target, int64_t reduction=at::Reduction::Mean, double beta=1.0);
TORCH_API at::Tensor softmax(const at::Tensor& self, int64_t dim, c10::optional<at::ScalarType> dtype={});
TORCH_API ::std::vector<at::Tensor> split(const at::Tensor& self, int64_t split_size, int64_t dim=0);
TORCH_API ::std::vector<at::Tensor> split(const at::Tensor& self, at::IntArrayRef split_size, int64_t dim=0);
TORCH_API at::Tensor sqrt(const at::Tensor& self);
TORCH_API at::Tensor square(const at::Tensor& self);
TORCH_API at::Tensor squeeze(const at::Tensor& self);
TORCH_API at::Tensor squeeze(const at::Tensor& self, int64_t dim);
TORCH_API at::Tensor stack(at::TensorList tensors, int64_t dim=0);
TORCH_API at::Tensor std(const at::Tensor& self, bool unbiased=true);
TORCH_API at::Tensor std(const at::Tensor& self, at::OptionalIntArrayRef dim, bool unbiased=true, bool keepdim=false);
TORCH_API at::Tensor std(const at::Tensor& self, at::OptionalIntArrayRef dim, c10::optional<int64_t> correction, bool keepdim=false);
TORCH_API at::Tensor sub(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha=1);
TORCH_API at::Tensor sub(const at::Tensor& self, const at::Scalar& other, const at::Scalar& alpha=1);
TORCH_API at::Tensor sum(const at::Tensor& self, c10::optional<at::ScalarType> dtype={});
TORCH_API at::Tensor sum(const at::Tensor& self, at::OptionalIntArrayRef dim, bool keepdim=false, c10::optional<at::ScalarType> dtype={});
TORCH_API at::Tensor t(const at::Tensor& self);
TORCH_API at::Tensor tanh(const at::Tensor& self);
TORCH_API ::std::tuple<at::Tensor,at::Tensor> topk(const at::Tensor& self, int64_t k, int64_t dim=-1, bool largest=true, bool sorted=true);
TORCH_API at::Tensor transpose(const at::Tensor& self, int64_t dim0, int64_t dim1);
TORCH_API at::Tensor unsqueeze(const at::Tensor& self, int64_t dim);
TORCH_API at::Tensor var(const at::Tensor& self, bool unbiased=true);
TORCH_API at::Tensor var(const at::Tensor& self, at::OptionalIntArrayRef dim, bool unbiased=true, bool keepdim=false);
TORCH_API at::Tensor var(const at::Tensor& self, at::OptionalIntArrayRef dim, c10::optional<int64_t> correction, bool keepdim=false);
TORCH_API at::Tensor where(const at::Tensor& condition, const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor where(const at::Tensor& condition, const at::Scalar& self, const at::Tensor& other);
TORCH_API at::Tensor where(const at::Tensor& condition, const at::Tensor& self, const at::Scalar& other);
TORCH_API at::Tensor where(const at::Tensor& condition, const at::Scalar& self, const at::Scalar& other);
TORCH_API ::std::vector<at::Tensor> where(const at::Tensor& condition);
TORCH_API at::Tensor zeros(at::IntArrayRef size, at::TensorOptions options={});
TORCH_API at::Tensor zeros(at::IntArrayRef size, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor zeros_like(const at::Tensor& self, at::TensorOptions options={}, c10::optional<at::MemoryFormat> memory_format={});
TORCH_API at::Tensor zeros_like(const at::Tensor& self, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory, c10::optional<at::MemoryFormat> memory_format);
TORCH_API bool allclose(const at::Tensor& self, const at::Tensor& other, double rtol=1e-05, double atol=1e-08, bool equal_nan=false);
TORCH_API at::Tensor masked_fill(const at::Tensor& self, const at::Tensor& mask, const at::Scalar& value);
TORCH_API at::Tensor masked_fill(const at::Tensor& self, const at::Tensor& mask, const at::Tensor& value);
TORCH_API at::Tensor cosine_similarity(const at::Tensor& x1, const at::Tensor& x2, int64_t dim=1, double eps=1e-08);
TORCH_API at::Tensor pairwise_distance(const at::Tensor& x1, const at::Tensor& x2, double p=2, double eps=1e-06, bool keepdim=false);
TORCH_API at::Tensor cdist(const at::Tensor& x1, const at::Tensor& x2, double p=2, c10::optional<int64_t> compute_mode={});
TORCH_API at::Tensor one_hot(const at::Tensor& self, int64_t num_classes=-1);
TORCH_API at::Tensor silu(const at::Tensor& self);
TORCH_API at::Tensor mish(const at::Tensor& self);
TORCH_API at::Tensor hardtanh(const at::Tensor& self, const at::Scalar& min_val=-1, const at::Scalar& max_val=1);
TORCH_API at::Tensor elu(const at::Tensor& self, const at::Scalar& alpha=1, const at::Scalar& scale=1, const at::Scalar& input_scale=1);
TORCH_API at::Tensor selu(const at::Tensor& self);
TORCH_API at::Tensor softplus(const at::Tensor& self, const at::Scalar& beta=1, const at::Scalar& threshold=20);
TORCH_API at::Tensor threshold(const at::Tensor& self, const at::Scalar& threshold, const at::Scalar& value);
TORCH_API at::Tensor nonzero(const at::Tensor& self);
TORCH_API ::std::tuple<at::Tensor,at::Tensor> sort(const at::Tensor& self, int64_t dim=-1, bool descending=false);
TORCH_API ::std::tuple<at::Tensor,at::Tensor> sort(const at::Tensor& self, c10::optional<bool> stable, int64_t dim=-1, bool descending=false);
TORCH_API at::Tensor argsort(const at::Tensor& self, int64_t dim=-1, bool descending=false);
TORCH_API at::Tensor argsort(const at::Tensor& self, bool stable, int64_t dim=-1, bool descending=false);
TORCH_API at::Tensor flip(const at::Tensor& self, at::IntArrayRef dims);
TORCH_API at::Tensor roll(const at::Tensor& self, at::IntArrayRef shifts, at::IntArrayRef dims={});
TORCH_API at::Tensor index_select(const at::Tensor& self, int64_t dim, const at::Tensor& index);
TORCH_API at::Tensor narrow(const at::Tensor& self, int64_t dim, int64_t start, int64_t length);
TORCH_API at::Tensor narrow(const at::Tensor& self, int64_t dim, const at::Tensor& start, int64_t length);
TORCH_API at::Tensor select(const at::Tensor& self, int64_t dim, int64_t index);
TORCH_API ::std::vector<at::Tensor> unbind(const at::Tensor& self, int64_t dim=0);
TORCH_API at::Tensor permute(const at::Tensor& self, at::IntArrayRef dims);
TORCH_API at::Tensor view_as_real(const at::Tensor& self);
TORCH_API at::Tensor tensordot(const at::Tensor& self, const at::Tensor& other, at::IntArrayRef dims_self, at::IntArrayRef dims_other);
TORCH_API at::Tensor einsum(c10::string_view equation, at::TensorList tensors, at::OptionalIntArrayRef path={});
TORCH_API at::Tensor kron(const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor trace(const at::Tensor& self);
TORCH_API at::Tensor tril(const at::Tensor& self, int64_t diagonal=0);
TORCH_API at::Tensor triu(const at::Tensor& self, int64_t diagonal=0);
TORCH_API at::Tensor lerp(const at::Tensor& self, const at::Tensor& end, const at::Scalar& weight);
TORCH_API at::Tensor lerp(const at::Tensor& self, const at::Tensor& end, const at::Tensor& weight);
TORCH_API at::Tensor addcmul(const at::Tensor& self, const at::Tensor& tensor1, const at::Tensor& tensor2, const at::Scalar& value=1);
TORCH_API at::Tensor addcdiv(const at::Tensor& self, const at::Tensor& tensor1, const at::Tensor& tensor2, const at::Scalar& value=1);
TORCH_API at::Tensor clamp_min(const at::Tensor& self, const at::Scalar& min);
TORCH_API at::Tensor clamp_min(const at::Tensor& self, const at::Tensor& min);
TORCH_API at::Tensor clamp_max(const at::Tensor& self, const at::Scalar& max);
TORCH_API at::Tensor clamp_max(const at::Tensor& self, const at::Tensor& max);
TORCH_API at::Tensor floor(const at::Tensor& self);
TORCH_API at::Tensor ceil(const at::Tensor& self);
TORCH_API at::Tensor round(const at::Tensor& self);
TORCH_API at::Tensor round(const at::Tensor& self, int64_t decimals);
TORCH_API at::Tensor remainder(const at::Tensor& self, const at::Scalar& other);
TORCH_API at::Tensor remainder(const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor remainder(const at::Scalar& self, const at::Tensor& other);
TORCH_API at::Tensor fmod(const at::Tensor& self, const at::Scalar& other);
TORCH_API at::Tensor fmod(const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor logical_and(const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor logical_or(const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor logical_not(const at::Tensor& self);
TORCH_API at::Tensor bitwise_and(const at::Tensor& self, const at::Scalar& other);
TORCH_API at::Tensor bitwise_and(const at::Scalar& self, const at::Tensor& other);
TORCH_API at::Tensor bitwise_and(const at::Tensor& self, const at::Tensor& other);
TORCH_API at::Tensor log1p(const at::Tensor& self);
TORCH_API at::Tensor expm1(const at::Tensor& self);
TORCH_API at::Tensor rsqrt(const at::Tensor& self);
TORCH_API at::Tensor reciprocal(const at::Tensor& self);
TORCH_API at::Tensor nan_to_num(const at::Tensor& self, c10::optional<double> nan={}, c10::optional<double> posinf={}, c10::optional<double> neginf={});
TORCH_API at::Tensor cumprod(const at::Tensor& self, int64_t dim, c10::optional<at::ScalarType> dtype={});
TORCH_API at::Tensor prod(const at::Tensor& self, c10::optional<at::ScalarType> dtype={});
TORCH_API at::Tensor prod(const at::Tensor& self, int64_t dim, bool keepdim=false, c10::optional<at::ScalarType> dtype={});
TORCH_API at::Tensor median(const at::Tensor& self);
TORCH_API ::std::tuple<at::Tensor,at::Tensor> median(const at::Tensor& self, int64_t dim, bool keepdim=false);
TORCH_API ::std::tuple<at::Tensor,at::Tensor> mode(const at::Tensor& self, int64_t dim=-1, bool keepdim=false);
TORCH_API ::std::tuple<at::Tensor,at::Tensor> kthvalue(const at::Tensor& self, int64_t k, int64_t dim=-1, bool keepdim=false);
TORCH_API at::Tensor dist(const at::Tensor& self, const at::Tensor& other, const at::Scalar& p=2);
TORCH_API at::Tensor hstack(at::TensorList tensors);
TORCH_API at::Tensor vstack(at::TensorList tensors);
TORCH_API at::Tensor cartesian_prod(at::TensorList tensors);
TORCH_API ::std::vector<at::Tensor> meshgrid(at::TensorList tensors);
TORCH_API ::std::vector<at::Tensor> meshgrid(at::TensorList tensors, c10::string_view indexing);
TORCH_API at::Tensor bernoulli(const at::Tensor& self, c10::optional<at::Generator> generator={});
TORCH_API at::Tensor bernoulli(const at::Tensor& self, double p, c10::optional<at::Generator> generator={});
TORCH_API at::Tensor bernoulli(const at::Tensor& self, const at::Tensor& p, c10::optional<at::Generator> generator={});
TORCH_API at::Tensor multinomial(const at::Tensor& self, int64_t num_samples, bool replacement=false, c10::optional<at::Generator> generator={});
TORCH_API at::Tensor normal(const at::Tensor& mean, double std=1, c10::optional<at::Generator> generator={});
TORCH_API at::Tensor normal(double mean, const at::Tensor& std, c10::optional<at::Generator> generator={});
TORCH_API at::Tensor normal(const at::Tensor& mean, const at::Tensor& std, c10::optional<at::Generator> generator={});
TORCH_API at::Tensor normal(double mean, double std, at::IntArrayRef size, c10::optional<at::Generator> generator={}, at::TensorOptions options={});
TORCH_API at::Tensor normal(double mean, double std, at::IntArrayRef size, c10::optional<at::Generator> generator, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor poisson(const at::Tensor& self, c10::optional<at::Generator> generator={});
TORCH_API void _foreach_mul_(at::TensorList self, const at::Scalar& scalar);
TORCH_API void _foreach_mul_(at::TensorList self, at::TensorList other);
TORCH_API void _foreach_mul_(at::TensorList self, at::ArrayRef<at::Scalar> scalars);
TORCH_API void _foreach_add_(at::TensorList self, const at::Scalar& scalar);
TORCH_API void _foreach_add_(at::TensorList self, at::TensorList other, const at::Scalar& alpha=1);
TORCH_API void _foreach_add_(at::TensorList self, at::ArrayRef<at::Scalar> scalars);
TORCH_API void _foreach_zero_(at::TensorList self);
TORCH_API void _foreach_div_(at::TensorList self, const at::Scalar& scalar);
TORCH_API void _foreach_div_(at::TensorList self, at::TensorList other);
TORCH_API void _foreach_div_(at::TensorList self, at::ArrayRef<at::Scalar> scalars);
TORCH_API ::std::vector<at::Tensor> _foreach_norm(at::TensorList self, const at::Scalar& ord=2);
TORCH_API at::Tensor scalar_tensor(const at::Scalar& s, at::TensorOptions options={});
TORCH_API at::Tensor scalar_tensor(const at::Scalar& s, c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout, c10::optional<at::Device> device, c10::optional<bool> pin_memory);
TORCH_API at::Tensor conv_transpose2d(const at::Tensor& input, const at::Tensor& weight, const c10::optional<at::Tensor> & bias={}, at::IntArrayRef stride=1, at::IntArrayRef padding=0, at::IntArrayRef output_padding=0, int64_t groups=1, at::IntArrayRef dilation=1);
TORCH_API at::Tensor adaptive_avg_pool2d(const at::Tensor& self, at::IntArrayRef output_size);
TORCH_API at::Tensor max_pool1d(const at::Tensor& self, at::IntArrayRef kernel_size, at::IntArrayRef stride={}, at::IntArrayRef padding=0, at::IntArrayRef dilation=1, bool ceil_mode=false);
TORCH_API at::Tensor& dropout_(at::Tensor& self, double p, bool train);
TORCH_API at::Tensor feature_dropout(const at::Tensor& input, double p, bool train);
TORCH_API at::Tensor alpha_dropout(const at::Tensor& input, double p, bool train);
TORCH_API at::Tensor instance_norm(const at::Tensor& input, const c10::optional<at::Tensor> & weight, const c10::optional<at::Tensor> & bias, const c10::optional<at::Tensor> & running_mean, const c10::optional<at::Tensor> & running_var, bool use_input_stats, double momentum, double eps, bool cudnn_enabled);
TORCH_API at::Tensor group_norm(const at::Tensor& input, int64_t num_groups, const c10::optional<at::Tensor> & weight={}, const c10::optional<at::Tensor> & bias={}, double eps=1e-05, bool cudnn_enabled=true);
TORCH_API ::std::tuple<at::Tensor,at::Tensor,at::Tensor,at::Tensor> embedding_bag(const at::Tensor& weight, const at::Tensor& indices, const at::Tensor& offsets, bool scale_grad_by_freq=false, int64_t mode=0, bool sparse=false, const c10::optional<at::Tensor> & per_sample_weights={}, bool include_last_offset=false);
TORCH_API ::std::tuple<at::Tensor,at::Tensor,at::Tensor,at::Tensor> embedding_bag(const at::Tensor& weight, const at::Tensor& indices, const at::Tensor& offsets, bool scale_grad_by_freq, int64_t mode, bool sparse, const c10::optional<at::Tensor> & per_sample_weights, bool include_last_offset, c10::optional<int64_t> padding_idx);
TORCH_API at::Tensor ctc_loss(const at::Tensor& log_probs, const at::Tensor& targets, at::IntArrayRef input_lengths, at::IntArrayRef target_lengths, int64_t blank=0, int64_t reduction=at::Reduction::Mean, bool zero_infinity=false);
TORCH_API at::Tensor ctc_loss(const at::Tensor& log_probs, const at::Tensor& targets, const at::Tensor& input_lengths, const at::Tensor& target_lengths, int64_t blank=0, int64_t reduction=at::Reduction::Mean, bool zero_infinity=false);
TORCH_API at::Tensor cosine_embedding_loss(const at::Tensor& input1, const at::Tensor& input2, const at::Tensor& target, double margin=0.0, int64_t reduction=at::Reduction::Mean);
TORCH_API at::Tensor soft_margin_loss(const at::Tensor& self, const at::Tensor& target, int64_t reduction=at::Reduction::Mean);
TORCH_API at::Tensor poisson_nll_loss(const at::Tensor& input, const at::Tensor& target, bool log_input, bool full, double eps, int64_t reduction);
TORCH_API at::Tensor triplet_margin_loss(const at::Tensor& anchor, const at::Tensor& positive, const at::Tensor& negative, double margin=1.0, double p=2, double eps=1e-06, bool swap=false, int64_t reduction=at::Reduction::Mean);

// at::tensor (ATen/ops/tensor.h): one set of overloads per scalar type, as LibTorch's macro.
#define GRADLINT_MODEL_AT_TENSOR(T)                                                 \
  TORCH_API Tensor tensor(ArrayRef<T> values, const TensorOptions& options);        \
  TORCH_API Tensor tensor(std::initializer_list<T> values, const TensorOptions& options); \
  TORCH_API Tensor tensor(T value, const TensorOptions& options);                   \
  TORCH_API Tensor tensor(ArrayRef<T> values);                                      \
  TORCH_API Tensor tensor(std::initializer_list<T> values);                         \
  TORCH_API Tensor tensor(T value);
GRADLINT_MODEL_AT_TENSOR(uint8_t)
GRADLINT_MODEL_AT_TENSOR(int8_t)
GRADLINT_MODEL_AT_TENSOR(int16_t)
GRADLINT_MODEL_AT_TENSOR(int)
GRADLINT_MODEL_AT_TENSOR(int64_t)
GRADLINT_MODEL_AT_TENSOR(float)
GRADLINT_MODEL_AT_TENSOR(double)
GRADLINT_MODEL_AT_TENSOR(bool)
GRADLINT_MODEL_AT_TENSOR(c10::Half)
GRADLINT_MODEL_AT_TENSOR(c10::BFloat16)
GRADLINT_MODEL_AT_TENSOR(c10::complex<float>)
GRADLINT_MODEL_AT_TENSOR(c10::complex<double>)
#undef GRADLINT_MODEL_AT_TENSOR
// from_blob (ATen/Functions.h)
class TORCH_API TensorMaker {
 public:
  using ContextDeleter = void (*)(void*);
 public:
#include <ATen/gradlint_generated_tensormaker_methods.inc>
};
TORCH_API Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, const std::function<void(void*)>& deleter, const TensorOptions& options = {}, const c10::optional<Device> target_device = {});
TORCH_API Tensor from_blob(void* data, IntArrayRef sizes, const std::function<void(void*)>& deleter, const TensorOptions& options = {});
TORCH_API Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, const TensorOptions& options = {});
TORCH_API Tensor from_blob(void* data, IntArrayRef sizes, const TensorOptions& options = {});
} // namespace at

// The other at:: operator functions of LibTorch 1.13.1, generated.
#include <ATen/gradlint_generated_functions.h>
