#pragma once
// gradlint LibTorch API model: torch:: tensor factory functions (LibTorch 1.13.1
// variable_factories.h; Dimname/SymInt overloads omitted).
#include <ATen/ATen.h>
#include <torch/csrc/autograd/variable.h>
#include <torch/detail/TensorDataContainer.h>
#include <functional>

namespace torch {
TORCH_API at::Tensor tensor(detail::TensorDataContainer tensor_data_container, const at::TensorOptions& options = {});
using Deleter = std::function<void(void*)>;
using at::MemoryFormat;
TORCH_API at::Tensor from_blob(void* data, at::IntArrayRef sizes, at::IntArrayRef strides, const Deleter& deleter, const at::TensorOptions& options = at::TensorOptions());
TORCH_API at::Tensor from_blob(void* data, at::IntArrayRef sizes, at::IntArrayRef strides, const at::TensorOptions& options = at::TensorOptions());
TORCH_API at::Tensor from_blob(void* data, at::IntArrayRef sizes, const Deleter& deleter, const at::TensorOptions& options = at::TensorOptions());
TORCH_API at::Tensor from_blob(void* data, at::IntArrayRef sizes, const at::TensorOptions& options = at::TensorOptions());
TORCH_API at::Tensor arange(const at::Scalar& end, at::TensorOptions options = {});
TORCH_API at::Tensor arange(const at::Scalar& start, const at::Scalar& end, at::TensorOptions options = {});
TORCH_API at::Tensor arange(const at::Scalar& start, const at::Scalar& end, const at::Scalar& step, at::TensorOptions options = {});
TORCH_API at::Tensor empty(at::IntArrayRef size, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = {});
TORCH_API at::Tensor empty_like(const at::Tensor& self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = {});
TORCH_API at::Tensor eye(int64_t n, at::TensorOptions options = {});
TORCH_API at::Tensor eye(int64_t n, int64_t m, at::TensorOptions options = {});
TORCH_API at::Tensor full(at::IntArrayRef size, const at::Scalar& fill_value, at::TensorOptions options = {});
TORCH_API at::Tensor full_like(const at::Tensor& self, const at::Scalar& fill_value, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = {});
TORCH_API at::Tensor linspace(const at::Scalar& start, const at::Scalar& end, int64_t steps, at::TensorOptions options = {});
TORCH_API at::Tensor logspace(const at::Scalar& start, const at::Scalar& end, int64_t steps, double base = 10.0, at::TensorOptions options = {});
TORCH_API at::Tensor ones(at::IntArrayRef size, at::TensorOptions options = {});
TORCH_API at::Tensor ones_like(const at::Tensor& self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = {});
TORCH_API at::Tensor scalar_tensor(const at::Scalar& s, at::TensorOptions options = {});
TORCH_API at::Tensor rand(at::IntArrayRef size, at::TensorOptions options = {});
TORCH_API at::Tensor rand(at::IntArrayRef size, c10::optional<at::Generator> generator, at::TensorOptions options = {});
TORCH_API at::Tensor rand_like(const at::Tensor& self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = {});
TORCH_API at::Tensor randint(int64_t high, at::IntArrayRef size, at::TensorOptions options = at::kLong);
TORCH_API at::Tensor randint(int64_t high, at::IntArrayRef size, c10::optional<at::Generator> generator, at::TensorOptions options = at::kLong);
TORCH_API at::Tensor randint(int64_t low, int64_t high, at::IntArrayRef size, at::TensorOptions options = at::kLong);
TORCH_API at::Tensor randint(int64_t low, int64_t high, at::IntArrayRef size, c10::optional<at::Generator> generator, at::TensorOptions options = at::kLong);
TORCH_API at::Tensor randint_like(const at::Tensor& self, int64_t high, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = {});
TORCH_API at::Tensor randint_like(const at::Tensor& self, int64_t low, int64_t high, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = {});
TORCH_API at::Tensor randn(at::IntArrayRef size, at::TensorOptions options = {});
TORCH_API at::Tensor randn(at::IntArrayRef size, c10::optional<at::Generator> generator, at::TensorOptions options = {});
TORCH_API at::Tensor randn_like(const at::Tensor& self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = {});
TORCH_API at::Tensor randperm(int64_t n, at::TensorOptions options = at::kLong);
TORCH_API at::Tensor randperm(int64_t n, c10::optional<at::Generator> generator, at::TensorOptions options = at::kLong);
TORCH_API at::Tensor range(const at::Scalar& start, const at::Scalar& end, const at::Scalar& step = 1, at::TensorOptions options = {});
TORCH_API at::Tensor range(const at::Scalar& start, const at::Scalar& end, at::TensorOptions options = {});
TORCH_API at::Tensor zeros(at::IntArrayRef size, at::TensorOptions options = {});
TORCH_API at::Tensor zeros_like(const at::Tensor& self, at::TensorOptions options = {}, c10::optional<at::MemoryFormat> memory_format = {});
TORCH_API at::Tensor normal(double mean, double std, at::IntArrayRef size, c10::optional<at::Generator> generator = {}, at::TensorOptions options = {});
} // namespace torch
