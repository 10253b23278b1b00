#pragma once
// gradlint LibTorch API model: torch/csrc/autograd/custom_function.h (LibTorch 1.13.1):
// custom autograd functions (struct F : Function<F> with static forward/backward).
#include <ATen/core/ivalue.h>
#include <torch/optim/optimizer.h> // ska::flat_hash_map
#include <torch/csrc/autograd/variable.h>
#include <string>
#include <unordered_set>
#include <utility>

namespace torch {
namespace autograd {
struct TORCH_API AutogradContext {
  AutogradContext() = default;
  AutogradContext(const AutogradContext& other) = delete;
  AutogradContext& operator=(const AutogradContext& other) = delete;
  ska::flat_hash_map<std::string, at::IValue> saved_data;
  void save_for_backward(variable_list to_save);
  void mark_dirty(const variable_list& inputs);
  void mark_non_differentiable(const variable_list& outputs);
  void set_materialize_grads(bool value);
  variable_list get_saved_variables() const;
  bool needs_input_grad(size_t output_edge) const;
  const std::unordered_set<at::TensorImpl*>& get_and_bump_dirty() const;
  const std::unordered_set<at::TensorImpl*>& get_non_differentiable() const;
};

template <class T>
struct TORCH_API Function {
  // LibTorch returns forward's result type (forward_t<X, Args...>); so does the model.
  template <typename X = T, typename... Args>
  static auto apply(Args&&... args)
      -> decltype(X::forward(static_cast<AutogradContext*>(nullptr), std::forward<Args>(args)...));
};
} // namespace autograd
} // namespace torch
