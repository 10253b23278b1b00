#pragma once
#include <ATen/ATen.h>
#include <memory>
#include <vector>

struct _object;
typedef _object PyObject; // as Python's headers declare it (Node::pyobj)
namespace c10 {
class Stream;
struct TensorImpl;
class OptionalDeviceGuard;
} // namespace c10

namespace torch {
namespace autograd {
using Variable = at::Tensor;
using variable_list = std::vector<Variable>;
struct Edge;
struct FunctionPreHook;
struct FunctionPostHook;
struct InputMetadata;
struct AnomalyMetadata;
class SavedVariable;
using edge_list = std::vector<Edge>;
using IndexRange = std::pair<size_t, size_t>;
struct TORCH_API Node : std::enable_shared_from_this<Node> {
  virtual ~Node();
  virtual std::string name() const;
  struct undefined_input {};
#include <torch/csrc/autograd/gradlint_generated_node_members.inc>

 protected:
  virtual variable_list apply(variable_list&& inputs) = 0;
};
TORCH_API Variable make_variable(at::Tensor data, bool requires_grad = false, bool allow_tensor_metadata_change = true);
} // namespace autograd
} // namespace torch
