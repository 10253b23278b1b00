#pragma once
#include <torch/csrc/autograd/variable.h>

namespace torch {
namespace autograd {
namespace detail {
// Model: the `= {}` defaults of backward/grad's variable_list parameters refer to this
// instead, so that declaring them does not instantiate std::vector<Tensor>'s constructor
// and destructor ("Parse cost" in README.md). The same empty list.
TORCH_API const variable_list& gradlint_model_empty_variable_list();
} // namespace detail
TORCH_API void backward(const variable_list& tensors,
                        const variable_list& grad_tensors = detail::gradlint_model_empty_variable_list(),
                        c10::optional<bool> retain_graph = {}, bool create_graph = false,
                        const variable_list& inputs = detail::gradlint_model_empty_variable_list());
TORCH_API variable_list grad(const variable_list& outputs, const variable_list& inputs,
                             const variable_list& grad_outputs = detail::gradlint_model_empty_variable_list(),
                             c10::optional<bool> retain_graph = {}, bool create_graph = false,
                             bool allow_unused = false);
namespace forward_ad {
TORCH_API uint64_t enter_dual_level();
TORCH_API void exit_dual_level(uint64_t level);
} // namespace forward_ad
} // namespace autograd
} // namespace torch
