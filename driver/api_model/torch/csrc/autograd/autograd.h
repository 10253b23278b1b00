#pragma once
#include <torch/csrc/autograd/variable.h>

namespace torch {
namespace autograd {
TORCH_API void backward(const variable_list& tensors, const variable_list& grad_tensors = {},
                        c10::optional<bool> retain_graph = {}, bool create_graph = false,
                        const variable_list& inputs = {});
TORCH_API variable_list grad(const variable_list& outputs, const variable_list& inputs,
                             const variable_list& grad_outputs = {}, c10::optional<bool> retain_graph = {},
                             bool create_graph = false, bool allow_unused = false);
namespace forward_ad {
TORCH_API uint64_t enter_dual_level();
TORCH_API void exit_dual_level(uint64_t level);
} // namespace forward_ad
} // namespace autograd
} // namespace torch
