#pragma once
#include <ATen/ATen.h>
#include <initializer_list>
#include <type_traits>
#include <vector>

namespace torch {
namespace detail {
// Model of the container behind torch::tensor({...}): accepts scalars,
// (nested) braced lists, ArrayRefs and std::vectors of the LibTorch scalar types.
struct TensorDataContainer {
  TensorDataContainer();
#define GRADLINT_TDC_SCALAR(T)                        \
  TensorDataContainer(T value);                       \
  TensorDataContainer(at::ArrayRef<T> values);        \
  TensorDataContainer(const std::vector<T>& values);
  GRADLINT_TDC_SCALAR(uint8_t)
  GRADLINT_TDC_SCALAR(int8_t)
  GRADLINT_TDC_SCALAR(int16_t)
  GRADLINT_TDC_SCALAR(int)
  GRADLINT_TDC_SCALAR(int64_t)
  GRADLINT_TDC_SCALAR(float)
  GRADLINT_TDC_SCALAR(double)
  GRADLINT_TDC_SCALAR(bool)
  GRADLINT_TDC_SCALAR(at::Half)
  GRADLINT_TDC_SCALAR(at::BFloat16)
  GRADLINT_TDC_SCALAR(c10::complex<float>)
  GRADLINT_TDC_SCALAR(c10::complex<double>)
#undef GRADLINT_TDC_SCALAR
  TensorDataContainer(std::initializer_list<TensorDataContainer> init_list);
  TensorDataContainer(const at::Tensor& tensor);
  bool is_scalar() const;
  bool is_init_list() const;
  bool is_tensor() const;
  at::Tensor convert_to_tensor(at::TensorOptions options) const;
};
} // namespace detail
} // namespace torch
