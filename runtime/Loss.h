// Loss.h - losses and the forward/backward pass.
#pragma once

#include "Batch.h"
#include "GradBuffer.h"
#include "Model.h"
#include "kernels/Backend.h"

namespace gradlint {
namespace runtime {

enum class LossKind {
  Mse,          // torch::mse_loss(pred, y): (pred - y)^2 per element; needs a Regression batch
  CrossEntropy, // torch::cross_entropy(logits, labels); needs a Classification batch
};

enum class Reduction {
  Mean, // Mse: divide by batch * out (every element); CrossEntropy: divide by batch
  Sum,
};

// The loss of `model` on `batch` (no gradients). Returned in double, computed
// from fp32 predictions.
double computeLoss(const Model &model, const Batch &batch, LossKind loss, Reduction reduction,
                   const Backend &backend = cpuBackend());

// One micro-batch of `loss.backward()`:
//   computes L = loss(model(batch.x), batch target) with `reduction`, and ADDS
//   the analytic gradient of lossScale * L to `grads` (each tensor rounded to
//   grads.dtype() as described in GradBuffer.h), like
//   `(lossScale * L).backward()` adds to `.grad`.
// Returns L (unscaled). Throws std::invalid_argument when the batch does not
// fit the model or the loss, or `grads` does not match the model.
//
// lossScale is where the accumulation factor goes: lossScale = 1/N on each of
// N micro-batches with Reduction::Mean reproduces the large-batch gradient;
// lossScale = 1 gives N times it.
double forwardBackward(const Model &model, const Batch &batch, LossKind loss, Reduction reduction,
                       float lossScale, GradBuffer &grads, const Backend &backend = cpuBackend());

const char *lossKindName(LossKind k);   // "mse", "cross_entropy"
const char *reductionName(Reduction r); // "mean", "sum"

} // namespace runtime
} // namespace gradlint
