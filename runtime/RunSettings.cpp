#include "RunSettings.h"

#include "Loss.h"
#include "Model.h"

namespace gradlint {
namespace runtime {

namespace {

Model makeModel(const RunSettings &s) {
  return Model::mlp(s.inFeatures, s.hidden, s.outFeatures, s.seed);
}

} // namespace

// The reference concatenates the same micro-batches.
Batch microBatch(const RunSettings &s, int window, int micro, int rank, int steps, int world) {
  uint64_t index = (static_cast<uint64_t>(window) * steps + micro) * world + rank;
  return makeBatch(s.seed, index, s.microBatchSize, s.inFeatures, s.outFeatures,
                   TaskKind::Regression);
}

std::vector<float> lastMicroBatchGradient(int steps, int worldSize, float lossScale,
                                          const RunSettings &settings, const Backend &backend) {
  Model model = makeModel(settings);
  GradBuffer grads(model, DType::F32);
  forwardBackward(model, microBatch(settings, 0, steps - 1, 0, steps, worldSize), LossKind::Mse,
                  Reduction::Mean, lossScale, grads, backend);
  return grads.flatten();
}

std::vector<float> weightedWindowGradient(const std::vector<double> &weights, int worldSize,
                                          const RunSettings &settings, const Backend &backend) {
  Model model = makeModel(settings);
  GradBuffer grads(model, DType::F32);
  int steps = static_cast<int>(weights.size());
  for (int rank = 0; rank < worldSize; ++rank)
    for (int k = 0; k < steps; ++k)
      forwardBackward(
          model, microBatch(settings, 0, k, rank, steps, worldSize), LossKind::Mse, Reduction::Mean,
          static_cast<float>(weights[static_cast<size_t>(k)] / worldSize), grads, backend);
  return grads.flatten();
}

} // namespace runtime
} // namespace gradlint
