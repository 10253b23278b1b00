#pragma once
// gradlint LibTorch API model: torch::optim::Optimizer (LibTorch 1.13).
#include <torch/arg.h>
#include <torch/serialize/archive.h>
#include <torch/types.h>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ska {
// Model: ska::flat_hash_map is represented by std::unordered_map.
template <typename K, typename V>
using flat_hash_map = std::unordered_map<K, V>;
} // namespace ska

namespace torch {
namespace optim {

class TORCH_API OptimizerParamState {
 public:
  virtual std::unique_ptr<OptimizerParamState> clone() const;
  virtual void serialize(torch::serialize::InputArchive& archive);
  virtual void serialize(torch::serialize::OutputArchive& archive) const;
  virtual ~OptimizerParamState() = default;
};

template <typename Derived>
class OptimizerCloneableParamState : public OptimizerParamState {
  std::unique_ptr<OptimizerParamState> clone() const override;
};

class TORCH_API OptimizerOptions {
 public:
  virtual std::unique_ptr<OptimizerOptions> clone() const;
  virtual void serialize(torch::serialize::InputArchive& archive);
  virtual void serialize(torch::serialize::OutputArchive& archive) const;
  virtual ~OptimizerOptions() = default;
  virtual double get_lr() const;
  virtual void set_lr(const double lr);
};

template <typename Derived>
class OptimizerCloneableOptions : public OptimizerOptions {
 private:
  std::unique_ptr<OptimizerOptions> clone() const override;
};

class TORCH_API OptimizerParamGroup {
 public:
  OptimizerParamGroup(const OptimizerParamGroup& param_group);
  OptimizerParamGroup(std::vector<Tensor> params);
  OptimizerParamGroup(std::vector<Tensor> params, std::unique_ptr<OptimizerOptions> options);
  bool has_options() const;
  OptimizerOptions& options();
  const OptimizerOptions& options() const;
  void set_options(std::unique_ptr<OptimizerOptions> options);
  std::vector<Tensor>& params();
  const std::vector<Tensor>& params() const;

 protected:
  std::vector<Tensor> params_;
  std::unique_ptr<OptimizerOptions> options_;
};

class TORCH_API Optimizer {
 public:
  Optimizer(const Optimizer& optimizer) = delete;
  Optimizer(Optimizer&& optimizer) = default;
  explicit Optimizer(std::vector<OptimizerParamGroup> param_groups, std::unique_ptr<OptimizerOptions> defaults);
  explicit Optimizer(std::vector<Tensor> parameters, std::unique_ptr<OptimizerOptions> defaults);
  void add_param_group(const OptimizerParamGroup& param_group);
  virtual ~Optimizer() = default;
  using LossClosure = std::function<Tensor()>;
  virtual Tensor step(LossClosure closure = nullptr) = 0;
  void add_parameters(const std::vector<Tensor>& parameters);
  void zero_grad();
  const std::vector<Tensor>& parameters() const noexcept;
  std::vector<Tensor>& parameters() noexcept;
  size_t size() const noexcept;
  OptimizerOptions& defaults() noexcept;
  const OptimizerOptions& defaults() const noexcept;
  std::vector<OptimizerParamGroup>& param_groups() noexcept;
  const std::vector<OptimizerParamGroup>& param_groups() const noexcept;
  ska::flat_hash_map<std::string, std::unique_ptr<OptimizerParamState>>& state() noexcept;
  const ska::flat_hash_map<std::string, std::unique_ptr<OptimizerParamState>>& state() const noexcept;
  virtual void save(serialize::OutputArchive& archive) const;
  virtual void load(serialize::InputArchive& archive);

 protected:
  std::vector<OptimizerParamGroup> param_groups_;
  ska::flat_hash_map<std::string, std::unique_ptr<OptimizerParamState>> state_;
  std::unique_ptr<OptimizerOptions> defaults_;
};

TORCH_API serialize::OutputArchive& operator<<(serialize::OutputArchive& archive, const Optimizer& optimizer);
TORCH_API serialize::InputArchive& operator>>(serialize::InputArchive& archive, Optimizer& optimizer);

} // namespace optim
} // namespace torch
