#pragma once
#include <torch/optim/optimizer.h>
#include <tuple>

namespace torch {
namespace optim {
struct TORCH_API RMSpropOptions : public OptimizerCloneableOptions<RMSpropOptions> {
  RMSpropOptions(double lr = 1e-2);
  GRADLINT_MODEL_ARG(double, lr);  // = 1e-2
  GRADLINT_MODEL_ARG(double, alpha);  // = 0.99
  GRADLINT_MODEL_ARG(double, eps);  // = 1e-8
  GRADLINT_MODEL_ARG(double, weight_decay);  // = 0
  GRADLINT_MODEL_ARG(double, momentum);  // = 0
  GRADLINT_MODEL_ARG(bool, centered);  // = false
 public:
  void serialize(torch::serialize::InputArchive& archive) override;
  void serialize(torch::serialize::OutputArchive& archive) const override;
  TORCH_API friend bool operator==(const RMSpropOptions& lhs, const RMSpropOptions& rhs);
  ~RMSpropOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

class TORCH_API RMSprop : public Optimizer {
 public:
  explicit RMSprop(std::vector<OptimizerParamGroup> param_groups, RMSpropOptions defaults = {});
  explicit RMSprop(std::vector<Tensor> params, RMSpropOptions defaults = {});
  torch::Tensor step(LossClosure closure = nullptr) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;
};
} // namespace optim
} // namespace torch
