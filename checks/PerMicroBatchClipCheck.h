#pragma once
#include "Check.h"

namespace gradlint {

/// accum-per-micro-batch-clip: clip_grad_norm_ / clip_grad_value_ on every
/// micro-batch instead of once on the accumulated gradient.
class PerMicroBatchClipCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  void fixProgram(runtime::LoopProgram &program) const override;
};

} // namespace gradlint
