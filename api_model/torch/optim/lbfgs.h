#pragma once
#include <torch/optim/optimizer.h>
#include <tuple>

namespace torch {
namespace optim {
struct TORCH_API LBFGSOptions : public OptimizerCloneableOptions<LBFGSOptions> {
  LBFGSOptions(double lr = 1);
  GRADLINT_MODEL_ARG(double, lr);  // = 1
  GRADLINT_MODEL_ARG(int64_t, max_iter);  // = 20
  GRADLINT_MODEL_ARG(c10::optional<int64_t>, max_eval);  // = c10::nullopt
  GRADLINT_MODEL_ARG(double, tolerance_grad);  // = 1e-7
  GRADLINT_MODEL_ARG(double, tolerance_change);  // = 1e-9
  GRADLINT_MODEL_ARG(int64_t, history_size);  // = 100
  GRADLINT_MODEL_ARG(c10::optional<std::string>, line_search_fn);  // = c10::nullopt
 public:
  void serialize(torch::serialize::InputArchive& archive) override;
  void serialize(torch::serialize::OutputArchive& archive) const override;
  TORCH_API friend bool operator==(const LBFGSOptions& lhs, const LBFGSOptions& rhs);
  ~LBFGSOptions() override = default;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

class TORCH_API LBFGS : public Optimizer {
 public:
  explicit LBFGS(std::vector<OptimizerParamGroup> param_groups, LBFGSOptions defaults = {});
  explicit LBFGS(std::vector<Tensor> params, LBFGSOptions defaults = {});
  Tensor step(LossClosure closure) override;
  void save(serialize::OutputArchive& archive) const override;
  void load(serialize::InputArchive& archive) override;
};
} // namespace optim
} // namespace torch
