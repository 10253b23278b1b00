// The numeric setting every run shares (the stand-in model's sizes, the seed,
// the gradients' dtype), the micro-batches it reads, and two gradients the
// confirmation states its figures against. The loops themselves run in
// confirm/interpreter (the loop's own code) and in the fixtures' LibTorch
// programs; both read the same micro-batches from here.
#pragma once

#include "Batch.h"
#include "GradBuffer.h"
#include "kernels/Backend.h"

#include <cstdint>
#include <vector>

namespace gradlint {
namespace runtime {

/// The numeric setting a run uses.
struct RunSettings {
  uint64_t seed = 7;
  int inFeatures = 8, hidden = 16, outFeatures = 4, microBatchSize = 4;
  double learningRate = 0.1;
  int windows = 1;        ///< optimizer steps to run
  double clipLimit = 0.0; ///< max_norm / clip value; <= 0: chosen from the data
  DType gradDType = DType::F32;
};

/// Micro-batch `micro` of window `window` on rank `rank`, in a loop of `steps`
/// micro-batches per window on `world` ranks: the data every run and the
/// reference read (and what the LibTorch fixtures in fixtures/ feed in).
Batch microBatch(const RunSettings &settings, int window, int micro, int rank, int steps,
                 int world);

/// The gradient of window 0's last micro-batch on rank 0 alone, with the loss
/// multiplied by `lossScale`: what a loop that resets on every micro-batch applies.
std::vector<float> lastMicroBatchGradient(int steps, int worldSize, float lossScale,
                                          const RunSettings &settings, const Backend &backend);

/// Window 0's micro-batch gradients weighted: the mean over ranks of
/// sum_k weights[k] * g_k (k = 0 .. weights.size() - 1, on rank r's data).
std::vector<float> weightedWindowGradient(const std::vector<double> &weights, int worldSize,
                                          const RunSettings &settings, const Backend &backend);

} // namespace runtime
} // namespace gradlint
