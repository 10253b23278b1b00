// Model.h - the runtime's models: Linear (in -> out) and a 2-layer MLP
// (in -> hidden -> act -> out, act = tanh by default), with parameters laid
// out exactly like torch::nn::Linear (weight [out, in], bias [out]).
#pragma once

#include "Tensor.h"
#include "kernels/Backend.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gradlint {
namespace runtime {

enum class Architecture { Linear, Mlp };

struct ModelConfig {
  Architecture architecture = Architecture::Linear;
  int in = 1;
  int hidden = 0; // Mlp only (> 0)
  int out = 1;
  Activation activation = Activation::Tanh; // Mlp only
  uint64_t seed = 0;
};

class Model {
public:
  // Parameters are drawn from SplitMix64(config.seed), layer by layer, weight
  // then bias, row-major, each uniform in [-1/sqrt(fan_in), 1/sqrt(fan_in))
  // (the bound of torch::nn::Linear's default init). Throws
  // std::invalid_argument on non-positive sizes.
  explicit Model(const ModelConfig &config);

  static Model linear(int in, int out, uint64_t seed);
  static Model mlp(int in, int hidden, int out, uint64_t seed,
                   Activation activation = Activation::Tanh);

  const ModelConfig &config() const { return config_; }
  int inFeatures() const { return config_.in; }
  int outFeatures() const { return config_.out; }

  // Parameter tensors in a fixed order:
  //   Linear: 0 "weight" [out, in], 1 "bias" [out]
  //   Mlp:    0 "fc1.weight" [hidden, in], 1 "fc1.bias" [hidden],
  //           2 "fc2.weight" [out, hidden], 3 "fc2.bias" [out]
  size_t numParams() const { return params_.size(); }
  Tensor &param(size_t i) { return params_.at(i); }
  const Tensor &param(size_t i) const { return params_.at(i); }
  const std::string &paramName(size_t i) const { return names_.at(i); }
  std::vector<Tensor> &params() { return params_; }
  const std::vector<Tensor> &params() const { return params_; }
  std::vector<Shape> paramShapes() const;
  int64_t numel() const; // total number of parameter elements

  // Predictions [batch, out] for inputs x [batch, in].
  Tensor forward(const Tensor &x, const Backend &backend = cpuBackend()) const;

  // Bitwise equality of all parameters.
  bool bitwiseEqual(const Model &other) const;

private:
  ModelConfig config_;
  std::vector<Tensor> params_;
  std::vector<std::string> names_;
};

} // namespace runtime
} // namespace gradlint
