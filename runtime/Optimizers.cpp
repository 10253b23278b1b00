// Optimizers.cpp
#include "Optimizers.h"

#include <cmath>

#include <stdexcept>

namespace gradlint {
namespace runtime {

namespace {

void checkShapes(const Model &model, const GradBuffer &grads,
                 const std::vector<std::vector<float>> &state, const char *who) {
  if (!grads.matches(model))
    throw std::invalid_argument(std::string(who) + ": gradients do not match the model");
  if (state.empty())
    return;
  if (state.size() != model.numParams())
    throw std::invalid_argument(std::string(who) + ": the model changed since the first step");
  for (size_t i = 0; i < state.size(); ++i)
    if (!state[i].empty() && static_cast<int64_t>(state[i].size()) != model.param(i).numel())
      throw std::invalid_argument(std::string(who) + ": the model changed since the first step");
}

} // namespace

Sgd::Sgd(SgdOptions options, const Backend &backend) : options_(options), backend_(&backend) {}

Sgd::Sgd(double lr, double momentum, double weightDecay)
    : Sgd(SgdOptions{lr, momentum, 0.0, weightDecay, false}) {}

void Sgd::step(Model &model, const GradBuffer &grads) {
  checkShapes(model, grads, buffers_, "Sgd::step");
  const bool useMomentum = options_.momentum != 0.0;
  const bool first = buffers_.empty();
  if (first)
    buffers_.resize(model.numParams());
  kernels::SgdScalars s;
  s.lr = static_cast<float>(options_.lr);
  s.momentum = static_cast<float>(options_.momentum);
  s.dampening = static_cast<float>(options_.dampening);
  s.weightDecay = static_cast<float>(options_.weightDecay);
  s.nesterov = options_.nesterov;
  for (size_t i = 0; i < model.numParams(); ++i) {
    Tensor &p = model.param(i);
    float *buf = nullptr;
    s.firstStep = false;
    if (useMomentum) {
      if (buffers_[i].empty()) {
        buffers_[i].assign(static_cast<size_t>(p.numel()), 0.0f);
        s.firstStep = true; // PyTorch: buf = clone(d_p)
      }
      buf = buffers_[i].data();
    }
    backend_->sgdStep(p.data(), grads.tensor(i).data(), buf, p.numel(), s);
  }
  ++steps_;
}

void Sgd::reset() {
  buffers_.clear();
  steps_ = 0;
}

AdamW::AdamW(AdamOptions options, const Backend &backend) : options_(options), backend_(&backend) {}

AdamW::AdamW(double lr, double beta1, double beta2, double eps, double weightDecay)
    : AdamW(AdamOptions{lr, beta1, beta2, eps, weightDecay, true}) {}

void AdamW::step(Model &model, const GradBuffer &grads) {
  checkShapes(model, grads, m_, "AdamW::step");
  if (m_.empty()) {
    for (const Tensor &p : model.params()) {
      m_.emplace_back(static_cast<size_t>(p.numel()), 0.0f);
      v_.emplace_back(static_cast<size_t>(p.numel()), 0.0f);
    }
  }
  ++steps_;
  const kernels::AdamScalars s =
      kernels::makeAdamScalars(options_.lr, options_.beta1, options_.beta2, options_.eps,
                               options_.weightDecay, options_.decoupledWeightDecay, steps_);
  for (size_t i = 0; i < model.numParams(); ++i) {
    Tensor &p = model.param(i);
    backend_->adamStep(p.data(), grads.tensor(i).data(), m_[i].data(), v_[i].data(), p.numel(), s);
  }
}

void AdamW::reset() {
  m_.clear();
  v_.clear();
  steps_ = 0;
}

// Host loops in fp32 with LibTorch's order of operations; both optimizers are
// small enough that no backend kernel is needed.
void Rmsprop::step(Model &model, const GradBuffer &grads) {
  checkShapes(model, grads, squareAvg_, "Rmsprop::step");
  if (squareAvg_.empty()) {
    squareAvg_.resize(model.numParams());
    momentum_.resize(model.numParams());
  }
  const float lr = static_cast<float>(options_.lr), alpha = static_cast<float>(options_.alpha),
              eps = static_cast<float>(options_.eps),
              decay = static_cast<float>(options_.weightDecay),
              momentum = static_cast<float>(options_.momentum);
  for (size_t i = 0; i < model.numParams(); ++i) {
    Tensor &p = model.param(i);
    const float *g = grads.tensor(i).data();
    size_t n = static_cast<size_t>(p.numel());
    if (squareAvg_[i].empty()) {
      squareAvg_[i].assign(n, 0.0f);
      momentum_[i].assign(n, 0.0f);
    }
    for (size_t k = 0; k < n; ++k) {
      float grad = g[k] + decay * p.data()[k];
      float &square = squareAvg_[i][k];
      square = alpha * square + (1.0f - alpha) * grad * grad;
      float avg = std::sqrt(square) + eps;
      if (momentum > 0.0f) {
        momentum_[i][k] = momentum * momentum_[i][k] + grad / avg;
        p.data()[k] -= lr * momentum_[i][k];
      } else {
        p.data()[k] -= lr * grad / avg;
      }
    }
  }
  ++steps_;
}

void Adagrad::step(Model &model, const GradBuffer &grads) {
  checkShapes(model, grads, sum_, "Adagrad::step");
  if (sum_.empty())
    sum_.resize(model.numParams());
  ++steps_;
  const float clr =
      static_cast<float>(options_.lr / (1.0 + static_cast<double>(steps_ - 1) * options_.lrDecay));
  const float eps = static_cast<float>(options_.eps),
              decay = static_cast<float>(options_.weightDecay);
  for (size_t i = 0; i < model.numParams(); ++i) {
    Tensor &p = model.param(i);
    const float *g = grads.tensor(i).data();
    size_t n = static_cast<size_t>(p.numel());
    if (sum_[i].empty())
      sum_[i].assign(n, 0.0f);
    for (size_t k = 0; k < n; ++k) {
      float grad = g[k] + decay * p.data()[k];
      sum_[i][k] += grad * grad;
      p.data()[k] -= clr * grad / (std::sqrt(sum_[i][k]) + eps);
    }
  }
}

} // namespace runtime
} // namespace gradlint
