#pragma once
#include <ATen/core/ivalue.h>
#include <torch/ordered_dict.h>
#include <torch/types.h>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace c10 {
struct QualifiedName;
namespace ivalue {
struct Object;
} // namespace ivalue
} // namespace c10

namespace torch {
namespace jit {
using Kwargs = std::unordered_map<std::string, c10::IValue>;
namespace detail {
// Model: the default argument of Module::forward refers to this instead of
// constructing Kwargs() (LibTorch's spelling), so that declaring forward does not
// instantiate std::unordered_map<std::string, IValue> and its destructor.
TORCH_API const Kwargs& gradlint_model_empty_kwargs();
} // namespace detail
using Stack = std::vector<c10::IValue>;
struct CompilationUnit;
struct Module;
template <typename T>
struct slot_list_impl;
template <typename T>
struct Named;
namespace detail {
struct TORCH_API ModulePolicy;
struct TORCH_API ParameterPolicy;
struct TORCH_API AttributePolicy;
struct TORCH_API BufferPolicy;
template <typename P>
struct NamedPolicy;
struct TORCH_API SlotCursor;
} // namespace detail
using module_list = slot_list_impl<detail::ModulePolicy>;
using named_module_list = slot_list_impl<detail::NamedPolicy<detail::ModulePolicy>>;
using parameter_list = slot_list_impl<detail::ParameterPolicy>;
using named_parameter_list = slot_list_impl<detail::NamedPolicy<detail::ParameterPolicy>>;
using attribute_list = slot_list_impl<detail::AttributePolicy>;
using named_attribute_list = slot_list_impl<detail::NamedPolicy<detail::AttributePolicy>>;
using buffer_list = slot_list_impl<detail::BufferPolicy>;
using named_buffer_list = slot_list_impl<detail::NamedPolicy<detail::BufferPolicy>>;
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
#include <torch/csrc/jit/api/gradlint_generated_module_members.inc>
};
namespace script {
using Module = ::torch::jit::Module;
} // namespace script
TORCH_API Module load(const std::string& filename, c10::optional<c10::Device> device = {});
} // namespace jit
} // namespace torch

#include <torch/csrc/jit/gradlint_generated_jit.h>

namespace torch {
namespace jit {
namespace detail {
// What the slot lists' iterators yield (LibTorch: value_type of each policy).
struct TORCH_API ModulePolicy {
  using value_type = Module;
};
struct TORCH_API ParameterPolicy {
  using value_type = at::Tensor;
};
struct TORCH_API BufferPolicy {
  using value_type = at::Tensor;
};
struct TORCH_API AttributePolicy {
  using value_type = c10::IValue;
};
template <typename Policy>
struct NamedPolicy {
  using value_type = Named<typename Policy::value_type>;
};
} // namespace detail
} // namespace jit
} // namespace torch
