#pragma once
#include "Check.h"

namespace gradlint {

/// accum-misplaced-zero-grad: a gradient reset that can run between a
/// backward() of an accumulation window and the step() that ends it.
class MisplacedZeroGradCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  void fixProgram(runtime::LoopProgram &program) const override;
};

} // namespace gradlint
