// Clip.h - torch::nn::utils::clip_grad_norm_ / clip_grad_value_.
#pragma once

#include "GradBuffer.h"
#include "kernels/Backend.h"

namespace gradlint {
namespace runtime {

// Total L2 norm over all gradient tensors (double); coef = maxNorm / (norm + 1e-6);
// when coef < 1 every gradient is multiplied by (float)coef (rounded to the
// storage type). Returns the norm before clipping. Throws
// std::invalid_argument when maxNorm < 0 or is NaN.
double clipGradNorm(GradBuffer &grads, double maxNorm, const Backend &backend = cpuBackend());

// Clamps every gradient element to [-clip, clip]. Throws std::invalid_argument
// when clip < 0 or is NaN.
void clipGradValue(GradBuffer &grads, double clip, const Backend &backend = cpuBackend());

} // namespace runtime
} // namespace gradlint
