#pragma once
#include <ATen/ATen.h>
#include <memory>
#include <vector>

namespace torch {
namespace autograd {
using Variable = at::Tensor;
using variable_list = std::vector<Variable>;
struct TORCH_API Node {
  virtual ~Node();
  virtual std::string name() const;
};
TORCH_API Variable make_variable(at::Tensor data, bool requires_grad = false, bool allow_tensor_metadata_change = true);
} // namespace autograd
} // namespace torch
