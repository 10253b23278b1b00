#pragma once
#include "Check.h"

namespace gradlint {

/// accum-missing-loss-division: backward() on a loss that is not divided by
/// the accumulation steps, with no division of the gradients either.
class MissingLossDivisionCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  void fixProgram(runtime::LoopProgram &program) const override;
};

} // namespace gradlint
