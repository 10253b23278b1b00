#pragma once
#include <ATen/Functions.h>
#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>

namespace at {
// Binary operators as LibTorch 1.13 defines them (AT_FORALL_BINARY_OPS), declared only
// (LibTorch defines them static inline, forwarding to the Tensor methods).
#define GRADLINT_MODEL_BINARY_OP(op)                      \
  TORCH_API Tensor operator op(const Tensor& x, const Tensor& y); \
  TORCH_API Tensor operator op(const Tensor& x, const Scalar& y); \
  TORCH_API Tensor operator op(const Scalar& x, const Tensor& y);
GRADLINT_MODEL_BINARY_OP(+)
GRADLINT_MODEL_BINARY_OP(*)
GRADLINT_MODEL_BINARY_OP(-)
GRADLINT_MODEL_BINARY_OP(/)
GRADLINT_MODEL_BINARY_OP(%)
GRADLINT_MODEL_BINARY_OP(&)
GRADLINT_MODEL_BINARY_OP(|)
GRADLINT_MODEL_BINARY_OP(^)
GRADLINT_MODEL_BINARY_OP(<)
GRADLINT_MODEL_BINARY_OP(<=)
GRADLINT_MODEL_BINARY_OP(>)
GRADLINT_MODEL_BINARY_OP(>=)
GRADLINT_MODEL_BINARY_OP(==)
GRADLINT_MODEL_BINARY_OP(!=)
#undef GRADLINT_MODEL_BINARY_OP
} // namespace at
