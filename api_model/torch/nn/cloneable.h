#pragma once
#include <torch/nn/module.h>
#include <memory>

namespace torch {
namespace nn {
template <typename Derived>
class Cloneable : public Module {
 public:
  using Module::Module;
  virtual void reset() = 0;
  std::shared_ptr<Module> clone(const optional<Device>& device = {}) const override;
};
} // namespace nn
} // namespace torch
