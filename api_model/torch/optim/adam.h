#pragma once
#include <torch/optim/optimizer.h>
#include <tuple>

namespace torch {
namespace optim {
struct TORCH_API AdamOptions : public OptimizerCloneableOptions<AdamOptions> {
  AdamOptions(double lr = 1e-3);
  GRADLINT_MODEL_ARG(double, lr);  // = 1e-3
  typedef std::tuple<double, double> betas_t;
  GRADLINT_MODEL_ARG(betas_t, betas);  // = std::make_tuple(0.9, 0.999)
  GRADLINT_MODEL_ARG(double, eps);  // = 1e-8
  GRADLINT_MODEL_ARG(double, weight_decay);  // = 0
  GRADLINT_MODEL_ARG(bool, amsgrad);  // = false
 public:
  void serialize(torch::serialize::InputArchive& archive) override;
  void serialize(torch::serialize::OutputArchive& archive) const override;
  TORCH_API friend bool operator==(const AdamOptions& lhs, const AdamOptions& rhs);
  ~AdamOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

class TORCH_API Adam : public Optimizer {
 public:
  explicit Adam(std::vector<OptimizerParamGroup> param_groups, AdamOptions defaults = {});
  explicit Adam(std::vector<Tensor> params, AdamOptions defaults = {});
  torch::Tensor step(LossClosure closure = nullptr) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;
};
} // namespace optim
} // namespace torch
