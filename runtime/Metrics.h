// Metrics.h - the numbers a diagnosis is confirmed with: how an applied
// gradient (or update) compares with the large-batch reference.
#pragma once

#include "GradBuffer.h"
#include "Model.h"

#include <vector>

namespace gradlint {
namespace runtime {

struct Comparison {
  double normRatio = 0.0;     // ||a|| / ||ref||  (inf when ref is 0 and a is not; 1 when both 0)
  double cosine = 0.0;        // <a, ref> / (||a|| ||ref||)  (1 when both are 0, 0 when one is)
  double relativeError = 0.0; // ||a - ref|| / ||ref||  (||a - ref|| when ref is 0)
  double maxAbsDiff = 0.0;    // max_i |a_i - ref_i|
};

// Compares two equally long vectors (std::invalid_argument otherwise); sums in double.
Comparison compare(const std::vector<float> &a, const std::vector<float> &ref);
// Over all tensors of two buffers of the same shapes (dtypes may differ).
Comparison compareGradients(const GradBuffer &applied, const GradBuffer &reference);
// Over all parameters of two models of the same architecture.
Comparison compareParameters(const Model &a, const Model &reference);

// All parameters concatenated in Model::params() order.
std::vector<float> flattenParameters(const Model &model);
// after - before, parameter by parameter, concatenated (the applied update).
std::vector<float> parameterDelta(const Model &before, const Model &after);

} // namespace runtime
} // namespace gradlint
