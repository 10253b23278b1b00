#pragma once
// gradlint LibTorch API model: at::DeprecatedTypeProperties, what Tensor::type() returns.
#include <c10/core/ScalarType.h>
#include <string>

namespace at {
class Tensor;
class TORCH_API DeprecatedTypeProperties {
 public:
  bool is_sparse() const;
  bool is_sparse_csr() const;
  bool is_distributed() const;
  ScalarType scalarType() const;
  std::string toString() const;
  Tensor unsafeTensorFromTH(void* th_pointer, bool retain) const;
  Tensor copy(const Tensor& src, bool non_blocking = false) const;
};
} // namespace at
