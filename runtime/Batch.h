// Batch.h - deterministic synthetic data.
//
// makeBatch(seed, index, batchSize, in, out, kind) is a pure function: the same
// arguments give bit-identical data on every platform (splitmix64 and float
// +,* only). Row r of batch `index` depends on (seed, index, r) alone, and all
// batches of one seed share one "teacher" function, so micro-batches
// 0..N-1 of a seed are N samples of the same task; Batch::concat of them is the
// large-batch reference's batch.
#pragma once

#include "Tensor.h"

#include <cstdint>
#include <vector>

namespace gradlint {
namespace runtime {

enum class TaskKind {
  Regression,     // targets y [batch, out] (for LossKind::Mse)
  Classification, // labels in [0, out) (for LossKind::CrossEntropy)
};

struct Batch {
  TaskKind kind = TaskKind::Regression;
  Tensor x;                    // inputs [batch, in]
  Tensor y;                    // Regression: targets [batch, out]; Classification: empty
  std::vector<int32_t> labels; // Classification: one label per row; Regression: empty
  int numClasses = 0;          // Classification: out; Regression: 0

  int size() const { return static_cast<int>(x.rank() == 2 ? x.dim(0) : 0); }
  int inFeatures() const { return static_cast<int>(x.rank() == 2 ? x.dim(1) : 0); }
  // Regression: target width; Classification: number of classes.
  int outFeatures() const;

  // Rows [begin, end).
  Batch slice(int begin, int end) const;
  // Rows of all parts in order (same kind and widths; throws otherwise).
  static Batch concat(const std::vector<Batch> &parts);
};

// x uniform in [-1, 1). Regression: y[k] = sum_j T[k][j] x[j] + 0.5 x[k mod in]^2
// + 0.1 u with teacher T uniform in [-1, 1) (from the seed) and noise u uniform
// in [-1, 1). Classification: label = argmax_k (sum_j T[k][j] x[j] + 0.5 u_k)
// (lowest k on ties). Throws std::invalid_argument on non-positive sizes (out
// must be >= 2 for classification).
Batch makeBatch(uint64_t seed, uint64_t index, int batchSize, int in, int out, TaskKind kind);

} // namespace runtime
} // namespace gradlint
