// Batch.cpp
#include "Batch.h"

#include "Random.h"

#include <stdexcept>

namespace gradlint {
namespace runtime {

int Batch::outFeatures() const {
  if (kind == TaskKind::Classification)
    return numClasses;
  return static_cast<int>(y.rank() == 2 ? y.dim(1) : 0);
}

Batch Batch::slice(int begin, int end) const {
  Batch b;
  b.kind = kind;
  b.numClasses = numClasses;
  b.x = x.rows(begin, end);
  if (kind == TaskKind::Regression) {
    b.y = y.rows(begin, end);
  } else {
    b.labels.assign(labels.begin() + begin, labels.begin() + end);
  }
  return b;
}

Batch Batch::concat(const std::vector<Batch> &parts) {
  if (parts.empty())
    throw std::invalid_argument("Batch::concat: no parts");
  Batch b;
  b.kind = parts[0].kind;
  b.numClasses = parts[0].numClasses;
  std::vector<const Tensor *> xs, ys;
  for (const Batch &p : parts) {
    if (p.kind != b.kind || p.numClasses != b.numClasses)
      throw std::invalid_argument("Batch::concat: parts of different kinds");
    xs.push_back(&p.x);
    if (b.kind == TaskKind::Regression)
      ys.push_back(&p.y);
    else
      b.labels.insert(b.labels.end(), p.labels.begin(), p.labels.end());
  }
  b.x = Tensor::concatRows(xs);
  if (b.kind == TaskKind::Regression)
    b.y = Tensor::concatRows(ys);
  return b;
}

Batch makeBatch(uint64_t seed, uint64_t index, int batchSize, int in, int out, TaskKind kind) {
  if (batchSize <= 0 || in <= 0 || out <= 0)
    throw std::invalid_argument("makeBatch: sizes must be positive");
  if (kind == TaskKind::Classification && out < 2)
    throw std::invalid_argument("makeBatch: classification needs at least 2 classes");

  // The teacher depends on the seed only.
  SplitMix64 teacherRng(deriveSeed(seed, 0xfeedfacecafebeefull));
  std::vector<float> T(static_cast<size_t>(out) * in);
  for (float &v : T)
    v = teacherRng.uniform(-1.0f, 1.0f);

  Batch b;
  b.kind = kind;
  b.x = Tensor(Shape{batchSize, in});
  if (kind == TaskKind::Regression) {
    b.y = Tensor(Shape{batchSize, out});
  } else {
    b.numClasses = out;
    b.labels.resize(static_cast<size_t>(batchSize));
  }
  const uint64_t batchSeed = deriveSeed(seed, index);
  for (int r = 0; r < batchSize; ++r) {
    SplitMix64 rng(deriveSeed(batchSeed, static_cast<uint64_t>(r)));
    float *xr = b.x.data() + static_cast<int64_t>(r) * in;
    for (int j = 0; j < in; ++j)
      xr[j] = rng.uniform(-1.0f, 1.0f);
    int best = 0;
    float bestScore = 0.0f;
    for (int k = 0; k < out; ++k) {
      float s = 0.0f;
      for (int j = 0; j < in; ++j)
        s += T[static_cast<size_t>(k) * in + j] * xr[j];
      const float u = rng.uniform(-1.0f, 1.0f);
      if (kind == TaskKind::Regression) {
        const float q = xr[k % in];
        b.y.at(r, k) = s + 0.5f * q * q + 0.1f * u;
      } else {
        const float score = s + 0.5f * u;
        if (k == 0 || score > bestScore) {
          best = k;
          bestScore = score;
        }
      }
    }
    if (kind == TaskKind::Classification)
      b.labels[static_cast<size_t>(r)] = best;
  }
  return b;
}

} // namespace runtime
} // namespace gradlint
