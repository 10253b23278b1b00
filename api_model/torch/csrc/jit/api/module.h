#pragma once
#include <ATen/core/ivalue.h>
#include <torch/ordered_dict.h>
#include <torch/types.h>
#include <string>
#include <unordered_map>
#include <vector>

namespace torch {
namespace jit {
using Kwargs = std::unordered_map<std::string, c10::IValue>;
namespace detail {
// Model: the default argument of Module::forward refers to this instead of
// constructing Kwargs() (LibTorch's spelling), so that declaring forward does not
// instantiate std::unordered_map<std::string, IValue> and its destructor.
TORCH_API const Kwargs& gradlint_model_empty_kwargs();
} // namespace detail
struct TORCH_API Module {
  Module();
  explicit Module(std::string class_name);
  c10::IValue forward(std::vector<c10::IValue> inputs, const Kwargs& kwargs = detail::gradlint_model_empty_kwargs());
  void train(bool on = true);
  void eval();
  bool is_training() const;
  void to(at::Device device, at::ScalarType dtype, bool non_blocking = false);
  void to(at::ScalarType dtype, bool non_blocking = false);
  void to(at::Device device, bool non_blocking = false);
  void save(const std::string& filename) const;
};
namespace script {
using Module = ::torch::jit::Module;
} // namespace script
TORCH_API Module load(const std::string& filename, c10::optional<c10::Device> device = {});
} // namespace jit
} // namespace torch
