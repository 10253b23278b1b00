#pragma once
#include "Check.h"

namespace gradlint {

/// accum-double-world-size-scaling: the loss (or the gradients) divided by the
/// world size although the all-reduce already averages over ranks.
class DoubleWorldSizeScalingCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  void fixProgram(runtime::LoopProgram &program) const override;
};

} // namespace gradlint
