// TestSupport.h - helpers shared by the runtime tests: error measures and an
// independent double-precision reference of the models and losses (used for
// finite differences; it shares no code with the runtime).
#pragma once

#include "Runtime.h"

#include <cmath>
#include <vector>

namespace gradlint {
namespace runtime {
namespace test {

// ||a - b|| / ||b|| (L2); ||a|| when b is zero.
inline double relativeError(const std::vector<float> &a, const std::vector<float> &b) {
  double num = 0.0, den = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double d = static_cast<double>(a[i]) - b[i];
    num += d * d;
    den += static_cast<double>(b[i]) * b[i];
  }
  return den > 0.0 ? std::sqrt(num / den) : std::sqrt(num);
}

inline std::vector<float> scaled(std::vector<float> v, double s) {
  for (float &x : v)
    x = static_cast<float>(x * s);
  return v;
}

inline std::vector<float> flatParams(const Model &m) {
  std::vector<float> out;
  for (const Tensor &p : m.params())
    out.insert(out.end(), p.values().begin(), p.values().end());
  return out;
}

// Parameters in double, same order and layout as Model::params().
using DoubleParams = std::vector<std::vector<double>>;

inline DoubleParams toDouble(const Model &m) {
  DoubleParams out;
  for (const Tensor &p : m.params())
    out.emplace_back(p.values().begin(), p.values().end());
  return out;
}

// y = x W^T + b in double.
inline std::vector<double> refLinear(const std::vector<double> &x, int batch, int in,
                                     const std::vector<double> &W, const std::vector<double> &b,
                                     int out) {
  std::vector<double> y(static_cast<size_t>(batch) * out);
  for (int r = 0; r < batch; ++r)
    for (int o = 0; o < out; ++o) {
      double s = b[o];
      for (int i = 0; i < in; ++i)
        s += x[r * in + i] * W[o * in + i];
      y[r * out + o] = s;
    }
  return y;
}

// The loss in double precision (tanh MLP or Linear; MSE or CE; mean or sum).
inline double refLoss(const ModelConfig &c, const DoubleParams &p, const Batch &batch,
                      LossKind loss, Reduction reduction) {
  const int B = batch.size();
  std::vector<double> x(batch.x.values().begin(), batch.x.values().end());
  std::vector<double> y;
  if (c.architecture == Architecture::Linear) {
    y = refLinear(x, B, c.in, p[0], p[1], c.out);
  } else {
    std::vector<double> h = refLinear(x, B, c.in, p[0], p[1], c.hidden);
    for (double &v : h)
      v = c.activation == Activation::Tanh ? std::tanh(v) : (v > 0 ? v : 0);
    y = refLinear(h, B, c.hidden, p[2], p[3], c.out);
  }
  double sum = 0.0;
  if (loss == LossKind::Mse) {
    for (size_t k = 0; k < y.size(); ++k) {
      const double d = y[k] - batch.y[static_cast<int64_t>(k)];
      sum += d * d;
    }
    return reduction == Reduction::Mean ? sum / (static_cast<double>(B) * c.out) : sum;
  }
  for (int r = 0; r < B; ++r) {
    double mx = y[r * c.out];
    for (int k = 1; k < c.out; ++k)
      mx = std::max(mx, y[r * c.out + k]);
    double s = 0.0;
    for (int k = 0; k < c.out; ++k)
      s += std::exp(y[r * c.out + k] - mx);
    sum += mx + std::log(s) - y[r * c.out + batch.labels[r]];
  }
  return reduction == Reduction::Mean ? sum / B : sum;
}

} // namespace test
} // namespace runtime
} // namespace gradlint
