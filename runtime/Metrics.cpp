// Metrics.cpp
#include "Metrics.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace gradlint {
namespace runtime {

Comparison compare(const std::vector<float> &a, const std::vector<float> &ref) {
  if (a.size() != ref.size())
    throw std::invalid_argument("compare: vectors of different sizes");
  double aa = 0.0, rr = 0.0, ar = 0.0, dd = 0.0, maxd = 0.0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double x = a[i], y = ref[i], d = x - y;
    aa += x * x;
    rr += y * y;
    ar += x * y;
    dd += d * d;
    if (std::fabs(d) > maxd || std::isnan(d))
      maxd = std::fabs(d);
  }
  Comparison c;
  const double na = std::sqrt(aa), nr = std::sqrt(rr);
  c.normRatio = nr > 0.0 ? na / nr : (na > 0.0 ? std::numeric_limits<double>::infinity() : 1.0);
  c.cosine = (na > 0.0 && nr > 0.0) ? ar / (na * nr) : (na == 0.0 && nr == 0.0 ? 1.0 : 0.0);
  c.relativeError = nr > 0.0 ? std::sqrt(dd) / nr : std::sqrt(dd);
  c.maxAbsDiff = maxd;
  return c;
}

Comparison compareGradients(const GradBuffer &applied, const GradBuffer &reference) {
  if (applied.numTensors() != reference.numTensors())
    throw std::invalid_argument("compareGradients: different numbers of tensors");
  for (size_t i = 0; i < applied.numTensors(); ++i)
    if (applied.shape(i) != reference.shape(i))
      throw std::invalid_argument("compareGradients: shape mismatch at tensor " +
                                  std::to_string(i));
  return compare(applied.flatten(), reference.flatten());
}

std::vector<float> flattenParameters(const Model &model) {
  std::vector<float> out;
  out.reserve(static_cast<size_t>(model.numel()));
  for (const Tensor &p : model.params())
    out.insert(out.end(), p.values().begin(), p.values().end());
  return out;
}

Comparison compareParameters(const Model &a, const Model &reference) {
  if (a.paramShapes() != reference.paramShapes())
    throw std::invalid_argument("compareParameters: different architectures");
  return compare(flattenParameters(a), flattenParameters(reference));
}

std::vector<float> parameterDelta(const Model &before, const Model &after) {
  if (before.paramShapes() != after.paramShapes())
    throw std::invalid_argument("parameterDelta: different architectures");
  std::vector<float> b = flattenParameters(before), a = flattenParameters(after);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = a[i] - b[i];
  return a;
}

} // namespace runtime
} // namespace gradlint
