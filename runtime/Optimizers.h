// Optimizers.h - SGD (with momentum) and Adam / AdamW with PyTorch semantics.
//
// Each optimizer keeps its state (momentum buffers, moments, step count)
// inside, created lazily on the first step() for the model's shapes.
// step(model, grads) reads the stored gradient values (fp32 view of the
// GradBuffer) and updates the fp32 parameters in place; it does not zero the
// gradients (zero_grad is GradBuffer::zero()).
#pragma once

#include "GradBuffer.h"
#include "Model.h"
#include "kernels/Backend.h"

#include <cstdint>
#include <vector>

namespace gradlint {
namespace runtime {

// torch::optim::SGDOptions.
struct SgdOptions {
  double lr = 0.01;
  double momentum = 0.0;
  double dampening = 0.0;
  double weightDecay = 0.0;
  bool nesterov = false;
};

class Sgd {
public:
  explicit Sgd(SgdOptions options, const Backend &backend = cpuBackend());
  Sgd(double lr, double momentum = 0.0, double weightDecay = 0.0);

  // One optimizer.step(). Throws std::invalid_argument when `grads` does not
  // match the model or the model's shapes changed since the first step.
  void step(Model &model, const GradBuffer &grads);

  const SgdOptions &options() const { return options_; }
  void setLr(double lr) { options_.lr = lr; } // for schedulers
  int64_t stepCount() const { return steps_; }
  // Momentum buffer of parameter i (empty before the first step or with momentum 0).
  const std::vector<float> &momentumBuffer(size_t i) const { return buffers_.at(i); }
  void reset(); // forget all state

private:
  SgdOptions options_;
  const Backend *backend_;
  int64_t steps_ = 0;
  std::vector<std::vector<float>> buffers_;
};

// torch::optim::AdamWOptions (weight decay default 1e-2) / AdamOptions (0).
struct AdamOptions {
  double lr = 1e-3;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double weightDecay = 1e-2;
  // true: AdamW (p *= 1 - lr * wd); false: Adam (g += wd * p).
  bool decoupledWeightDecay = true;
};

class AdamW {
public:
  explicit AdamW(AdamOptions options, const Backend &backend = cpuBackend());
  AdamW(double lr, double beta1, double beta2, double eps, double weightDecay);

  void step(Model &model, const GradBuffer &grads);

  const AdamOptions &options() const { return options_; }
  void setLr(double lr) { options_.lr = lr; }
  int64_t stepCount() const { return steps_; }
  const std::vector<float> &expAvg(size_t i) const { return m_.at(i); }
  const std::vector<float> &expAvgSq(size_t i) const { return v_.at(i); }
  void reset();

private:
  AdamOptions options_;
  const Backend *backend_;
  int64_t steps_ = 0;
  std::vector<std::vector<float>> m_, v_;
};

// torch::optim::RMSpropOptions (centered = false).
struct RmspropOptions {
  double lr = 0.01;
  double alpha = 0.99;
  double eps = 1e-8;
  double weightDecay = 0.0;
  double momentum = 0.0;
};

class Rmsprop {
public:
  explicit Rmsprop(RmspropOptions options) : options_(options) {}
  void step(Model &model, const GradBuffer &grads);
  const RmspropOptions &options() const { return options_; }
  void setLr(double lr) { options_.lr = lr; }
  int64_t stepCount() const { return steps_; }

private:
  RmspropOptions options_;
  int64_t steps_ = 0;
  std::vector<std::vector<float>> squareAvg_, momentum_;
};

// torch::optim::AdagradOptions (initial_accumulator_value = 0).
struct AdagradOptions {
  double lr = 0.01;
  double lrDecay = 0.0;
  double weightDecay = 0.0;
  double eps = 1e-10;
};

class Adagrad {
public:
  explicit Adagrad(AdagradOptions options) : options_(options) {}
  void step(Model &model, const GradBuffer &grads);
  const AdagradOptions &options() const { return options_; }
  void setLr(double lr) { options_.lr = lr; }
  int64_t stepCount() const { return steps_; }

private:
  AdagradOptions options_;
  int64_t steps_ = 0;
  std::vector<std::vector<float>> sum_;
};

// torch.optim.Adam: AdamW with coupled (L2) weight decay, default 0.
inline AdamOptions adamOptions(double lr = 1e-3, double beta1 = 0.9, double beta2 = 0.999,
                               double eps = 1e-8, double weightDecay = 0.0) {
  return AdamOptions{lr, beta1, beta2, eps, weightDecay, false};
}

} // namespace runtime
} // namespace gradlint
