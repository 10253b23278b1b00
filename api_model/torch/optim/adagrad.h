#pragma once
#include <torch/optim/optimizer.h>
#include <tuple>

namespace torch {
namespace optim {
struct TORCH_API AdagradOptions : public OptimizerCloneableOptions<AdagradOptions> {
  AdagradOptions(double lr = 1e-2);
  GRADLINT_MODEL_ARG(double, lr);  // = 1e-2
  GRADLINT_MODEL_ARG(double, lr_decay);  // = 0
  GRADLINT_MODEL_ARG(double, weight_decay);  // = 0
  GRADLINT_MODEL_ARG(double, initial_accumulator_value);  // = 0
  GRADLINT_MODEL_ARG(double, eps);  // = 1e-10
 public:
  void serialize(torch::serialize::InputArchive& archive) override;
  void serialize(torch::serialize::OutputArchive& archive) const override;
  TORCH_API friend bool operator==(const AdagradOptions& lhs, const AdagradOptions& rhs);
  ~AdagradOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

class TORCH_API Adagrad : public Optimizer {
 public:
  explicit Adagrad(std::vector<OptimizerParamGroup> param_groups, AdagradOptions defaults = {});
  explicit Adagrad(std::vector<Tensor> params, AdagradOptions defaults = {});
  torch::Tensor step(LossClosure closure = nullptr) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;
};
} // namespace optim
} // namespace torch
