// Clip.cpp
#include "Clip.h"

#include <cmath>
#include <stdexcept>

namespace gradlint {
namespace runtime {

double clipGradNorm(GradBuffer &grads, double maxNorm, const Backend &backend) {
  if (!(maxNorm >= 0.0))
    throw std::invalid_argument("clipGradNorm: max_norm must be >= 0");
  const double norm = grads.norm(backend);
  const double coef = maxNorm / (norm + 1e-6);
  if (coef < 1.0)
    grads.scale(static_cast<float>(coef), backend);
  return norm;
}

void clipGradValue(GradBuffer &grads, double clip, const Backend &backend) {
  if (!(clip >= 0.0))
    throw std::invalid_argument("clipGradValue: clip must be >= 0");
  for (size_t i = 0; i < grads.numTensors(); ++i)
    backend.clampAbs(grads.mutableData(i), grads.tensor(i).numel(), static_cast<float>(clip),
                     grads.dtype());
}

} // namespace runtime
} // namespace gradlint
