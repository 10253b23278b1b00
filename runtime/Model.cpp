// Model.cpp
#include "Model.h"

#include "Random.h"

#include <cmath>
#include <stdexcept>

namespace gradlint {
namespace runtime {

namespace {

void addLinear(std::vector<Tensor> &params, std::vector<std::string> &names,
               const std::string &prefix, int in, int out, SplitMix64 &rng) {
  // 1/sqrt(in) in double, rounded once to float: identical everywhere
  // (sqrt is correctly rounded by IEEE 754).
  const float bound = static_cast<float>(1.0 / std::sqrt(static_cast<double>(in)));
  Tensor w(Shape{out, in});
  for (float &v : w.values())
    v = rng.uniform(-bound, bound);
  Tensor b(Shape{out});
  for (float &v : b.values())
    v = rng.uniform(-bound, bound);
  params.push_back(std::move(w));
  names.push_back(prefix + "weight");
  params.push_back(std::move(b));
  names.push_back(prefix + "bias");
}

} // namespace

Model::Model(const ModelConfig &config) : config_(config) {
  if (config.in <= 0 || config.out <= 0)
    throw std::invalid_argument("Model: in and out must be positive");
  SplitMix64 rng(config.seed);
  if (config.architecture == Architecture::Linear) {
    addLinear(params_, names_, "", config.in, config.out, rng);
  } else {
    if (config.hidden <= 0)
      throw std::invalid_argument("Model: an MLP needs hidden > 0");
    addLinear(params_, names_, "fc1.", config.in, config.hidden, rng);
    addLinear(params_, names_, "fc2.", config.hidden, config.out, rng);
  }
}

Model Model::linear(int in, int out, uint64_t seed) {
  ModelConfig c;
  c.architecture = Architecture::Linear;
  c.in = in;
  c.out = out;
  c.seed = seed;
  return Model(c);
}

Model Model::mlp(int in, int hidden, int out, uint64_t seed, Activation activation) {
  ModelConfig c;
  c.architecture = Architecture::Mlp;
  c.in = in;
  c.hidden = hidden;
  c.out = out;
  c.activation = activation;
  c.seed = seed;
  return Model(c);
}

std::vector<Shape> Model::paramShapes() const {
  std::vector<Shape> shapes;
  for (const Tensor &p : params_)
    shapes.push_back(p.shape());
  return shapes;
}

int64_t Model::numel() const {
  int64_t n = 0;
  for (const Tensor &p : params_)
    n += p.numel();
  return n;
}

Tensor Model::forward(const Tensor &x, const Backend &backend) const {
  if (x.rank() != 2 || x.dim(1) != config_.in)
    throw std::invalid_argument("Model::forward: input " + shapeString(x.shape()) +
                                " does not match in_features " + std::to_string(config_.in));
  const int batch = static_cast<int>(x.dim(0));
  if (config_.architecture == Architecture::Linear) {
    Tensor y(Shape{batch, config_.out});
    backend.linearForward(x.data(), params_[0].data(), params_[1].data(), y.data(), batch,
                          config_.in, config_.out);
    return y;
  }
  Tensor pre(Shape{batch, config_.hidden}), h(Shape{batch, config_.hidden});
  backend.linearForward(x.data(), params_[0].data(), params_[1].data(), pre.data(), batch,
                        config_.in, config_.hidden);
  backend.activationForward(config_.activation, pre.data(), h.data(), h.numel());
  Tensor y(Shape{batch, config_.out});
  backend.linearForward(h.data(), params_[2].data(), params_[3].data(), y.data(), batch,
                        config_.hidden, config_.out);
  return y;
}

bool Model::bitwiseEqual(const Model &other) const {
  if (params_.size() != other.params_.size())
    return false;
  for (size_t i = 0; i < params_.size(); ++i)
    if (!params_[i].bitwiseEqual(other.params_[i]))
      return false;
  return true;
}

} // namespace runtime
} // namespace gradlint
