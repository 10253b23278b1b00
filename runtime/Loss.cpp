// Loss.cpp - forward and analytic backward of Linear / MLP with MSE / CE.
#include "Loss.h"

#include <stdexcept>
#include <string>

namespace gradlint {
namespace runtime {

namespace {

void validate(const Model &model, const Batch &batch, LossKind loss) {
  if (batch.size() <= 0)
    throw std::invalid_argument("forwardBackward: empty batch");
  if (batch.inFeatures() != model.inFeatures())
    throw std::invalid_argument("forwardBackward: batch has " + std::to_string(batch.inFeatures()) +
                                " features, model expects " + std::to_string(model.inFeatures()));
  if (loss == LossKind::Mse) {
    if (batch.kind != TaskKind::Regression)
      throw std::invalid_argument("forwardBackward: MSE needs a regression batch");
    if (batch.y.rank() != 2 || batch.y.dim(0) != batch.size() ||
        batch.y.dim(1) != model.outFeatures())
      throw std::invalid_argument("forwardBackward: targets " + shapeString(batch.y.shape()) +
                                  " do not match the model output");
  } else {
    if (batch.kind != TaskKind::Classification)
      throw std::invalid_argument("forwardBackward: cross entropy needs a classification batch");
    if (static_cast<int>(batch.labels.size()) != batch.size())
      throw std::invalid_argument("forwardBackward: one label per row expected");
    for (int32_t l : batch.labels)
      if (l < 0 || l >= model.outFeatures())
        throw std::invalid_argument("forwardBackward: label " + std::to_string(l) +
                                    " out of range");
  }
}

double denominator(const Batch &batch, int out, LossKind loss, Reduction reduction) {
  if (reduction == Reduction::Sum)
    return 1.0;
  return loss == LossKind::Mse ? static_cast<double>(batch.size()) * out
                               : static_cast<double>(batch.size());
}

// Loss sum and (optionally) dL/dpred for predictions `pred`.
double lossSum(const Batch &batch, const Tensor &pred, LossKind loss, float gradScale, float *dpred,
               const Backend &backend) {
  if (loss == LossKind::Mse)
    return backend.mseLoss(pred.data(), batch.y.data(), dpred, pred.numel(), gradScale);
  return backend.crossEntropyLoss(pred.data(), batch.labels.data(), dpred, batch.size(),
                                  static_cast<int>(pred.dim(1)), gradScale);
}

} // namespace

double computeLoss(const Model &model, const Batch &batch, LossKind loss, Reduction reduction,
                   const Backend &backend) {
  validate(model, batch, loss);
  const Tensor pred = model.forward(batch.x, backend);
  return lossSum(batch, pred, loss, 0.0f, nullptr, backend) /
         denominator(batch, model.outFeatures(), loss, reduction);
}

double forwardBackward(const Model &model, const Batch &batch, LossKind loss, Reduction reduction,
                       float lossScale, GradBuffer &grads, const Backend &backend) {
  validate(model, batch, loss);
  if (!grads.matches(model))
    throw std::invalid_argument("forwardBackward: gradient buffer does not match the model");

  const ModelConfig &c = model.config();
  const int B = batch.size();
  const double denom = denominator(batch, c.out, loss, reduction);
  // d(lossScale * L)/d(per-element loss) = lossScale / denom, formed in double.
  const float gradScale = static_cast<float>(static_cast<double>(lossScale) / denom);

  if (c.architecture == Architecture::Linear) {
    const Tensor &W = model.param(0);
    const Tensor &b = model.param(1);
    Tensor y(Shape{B, c.out});
    backend.linearForward(batch.x.data(), W.data(), b.data(), y.data(), B, c.in, c.out);
    Tensor dy(Shape{B, c.out});
    const double sum = lossSum(batch, y, loss, gradScale, dy.data(), backend);
    Tensor dW(W.shape()), db(b.shape());
    backend.linearBackward(batch.x.data(), W.data(), dy.data(), dW.data(), db.data(), nullptr, B,
                           c.in, c.out);
    grads.accumulate(0, dW.data(), backend);
    grads.accumulate(1, db.data(), backend);
    return sum / denom;
  }

  const Tensor &W1 = model.param(0);
  const Tensor &b1 = model.param(1);
  const Tensor &W2 = model.param(2);
  const Tensor &b2 = model.param(3);
  Tensor pre(Shape{B, c.hidden}), h(Shape{B, c.hidden}), y(Shape{B, c.out});
  backend.linearForward(batch.x.data(), W1.data(), b1.data(), pre.data(), B, c.in, c.hidden);
  backend.activationForward(c.activation, pre.data(), h.data(), h.numel());
  backend.linearForward(h.data(), W2.data(), b2.data(), y.data(), B, c.hidden, c.out);

  Tensor dy(Shape{B, c.out});
  const double sum = lossSum(batch, y, loss, gradScale, dy.data(), backend);

  Tensor dW2(W2.shape()), db2(b2.shape()), dh(Shape{B, c.hidden});
  backend.linearBackward(h.data(), W2.data(), dy.data(), dW2.data(), db2.data(), dh.data(), B,
                         c.hidden, c.out);
  Tensor dpre(Shape{B, c.hidden});
  backend.activationBackward(c.activation, pre.data(), h.data(), dh.data(), dpre.data(),
                             dpre.numel());
  Tensor dW1(W1.shape()), db1(b1.shape());
  backend.linearBackward(batch.x.data(), W1.data(), dpre.data(), dW1.data(), db1.data(), nullptr, B,
                         c.in, c.hidden);
  grads.accumulate(0, dW1.data(), backend);
  grads.accumulate(1, db1.data(), backend);
  grads.accumulate(2, dW2.data(), backend);
  grads.accumulate(3, db2.data(), backend);
  return sum / denom;
}

const char *lossKindName(LossKind k) { return k == LossKind::Mse ? "mse" : "cross_entropy"; }
const char *reductionName(Reduction r) { return r == Reduction::Mean ? "mean" : "sum"; }

} // namespace runtime
} // namespace gradlint
