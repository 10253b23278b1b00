#pragma once
#include <ATen/core/TensorBody.h>

namespace at {
class Type;
TORCH_API const TensorBase& get_tensor_base(const Tensor& t);
class TORCH_API OptionalTensorRef {
 public:
  OptionalTensorRef();
  ~OptionalTensorRef();
  OptionalTensorRef(const TensorBase& src);
  OptionalTensorRef(const OptionalTensorRef& rhs);
 public:
#include <ATen/core/gradlint_generated_optionaltensorref_methods.inc>
};
} // namespace at
