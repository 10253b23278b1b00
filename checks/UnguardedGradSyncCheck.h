#pragma once
#include "Check.h"

namespace gradlint {

/// accum-unguarded-grad-sync: a gradient all-reduce on every micro-batch of an
/// accumulation window instead of once at the boundary.
class UnguardedGradSyncCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  void fixProgram(runtime::LoopProgram &program) const override;
};

} // namespace gradlint
