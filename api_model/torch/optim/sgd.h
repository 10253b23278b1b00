#pragma once
#include <torch/optim/optimizer.h>
#include <tuple>

namespace torch {
namespace optim {
struct TORCH_API SGDOptions : public OptimizerCloneableOptions<SGDOptions> {
  SGDOptions(double lr);
  GRADLINT_MODEL_ARG(double, lr);
  GRADLINT_MODEL_ARG(double, momentum);  // = 0
  GRADLINT_MODEL_ARG(double, dampening);  // = 0
  GRADLINT_MODEL_ARG(double, weight_decay);  // = 0
  GRADLINT_MODEL_ARG(bool, nesterov);  // = false
 public:
  void serialize(torch::serialize::InputArchive& archive) override;
  void serialize(torch::serialize::OutputArchive& archive) const override;
  TORCH_API friend bool operator==(const SGDOptions& lhs, const SGDOptions& rhs);
  ~SGDOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

class TORCH_API SGD : public Optimizer {
 public:
  explicit SGD(std::vector<OptimizerParamGroup> param_groups, SGDOptions defaults);
  explicit SGD(std::vector<Tensor> params, SGDOptions defaults);
  torch::Tensor step(LossClosure closure = nullptr) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;
};
} // namespace optim
} // namespace torch
