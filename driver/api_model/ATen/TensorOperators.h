#pragma once
#include <ATen/Functions.h>
#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>

namespace at {
// Binary operators as LibTorch 1.13 defines them (AT_FORALL_BINARY_OPS).
#define GRADLINT_MODEL_BINARY_OP(op, body, reverse_scalar_body)       \
  static inline Tensor operator op(const Tensor& x, const Tensor& y) { \
    return body;                                                       \
  }                                                                    \
  static inline Tensor operator op(const Tensor& x, const Scalar& y) { \
    return body;                                                       \
  }                                                                    \
  static inline Tensor operator op(const Scalar& x, const Tensor& y) { \
    return reverse_scalar_body;                                        \
  }
GRADLINT_MODEL_BINARY_OP(+, x.add(y), y.add(x))
GRADLINT_MODEL_BINARY_OP(*, x.mul(y), y.mul(x))
GRADLINT_MODEL_BINARY_OP(-, x.sub(y), ::at::empty_like(y).fill_(x).sub_(y))
GRADLINT_MODEL_BINARY_OP(/, x.div(y), ::at::empty_like(y).fill_(x).div_(y))
GRADLINT_MODEL_BINARY_OP(%, x.remainder(y), ::at::empty_like(y).fill_(x).remainder_(y))
GRADLINT_MODEL_BINARY_OP(&, x.bitwise_and(y), y.bitwise_and(x))
GRADLINT_MODEL_BINARY_OP(|, x.bitwise_or(y), y.bitwise_or(x))
GRADLINT_MODEL_BINARY_OP(^, x.bitwise_xor(y), y.bitwise_xor(x))
GRADLINT_MODEL_BINARY_OP(<, x.lt(y), y.gt(x))
GRADLINT_MODEL_BINARY_OP(<=, x.le(y), y.ge(x))
GRADLINT_MODEL_BINARY_OP(>, x.gt(y), y.lt(x))
GRADLINT_MODEL_BINARY_OP(>=, x.ge(y), y.le(x))
GRADLINT_MODEL_BINARY_OP(==, x.eq(y), y.eq(x))
GRADLINT_MODEL_BINARY_OP(!=, x.ne(y), y.ne(x))
#undef GRADLINT_MODEL_BINARY_OP
} // namespace at
