#include "checks/Check.h"

namespace gradlint {

namespace {

/// accum-fp16-grad-accumulation: an accumulation window over parameters
/// converted to half precision: each backward() adds into a half-precision
/// .grad, and small micro-batch gradients round away against the growing sum.
class Fp16GradAccumulationCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
};

} // namespace

void Fp16GradAccumulationCheck::check(const TrainingLoop &loop, CheckContext &context) {
  if (!loop.hasWindow() || !loop.boundaryStep() || !loop.halfPrecision.conversion)
    return;
  // The accumulation happens where backward() runs on every micro-batch.
  const TrainingEvent *accumulating = nullptr;
  for (const TrainingEvent *backward : loop.eventsOf(EventKind::Backward))
    if (backward->condition == EventCondition::EveryMicroBatch &&
        !backward->steppedEveryMicroBatch) {
      accumulating = backward;
      break;
    }
  if (!accumulating)
    return;
  const std::string &type = loop.halfPrecision.type;
  bool bf16 = type == "bfloat16";
  Finding result = finding(
      loop.reportLocation(*accumulating),
      "backward() accumulates " + describeSteps(loop) + " micro-batches into " + type +
          " gradients: the parameters were converted to " + type + ", so .grad is " + type +
          " too and keeps " + (bf16 ? "8" : "11") +
          " significant bits; each micro-batch's gradient is rounded against the growing sum, "
          "and small ones round away (no fp32 copy of the gradients or parameters is kept)");
  result.notes.push_back(windowNote(loop, context));
  result.notes.push_back(
      {loop.halfPrecision.conversion->getBeginLoc(),
       "the parameters become " + type +
           " here; fix: keep the parameters (or an fp32 master "
           "copy with fp32 gradient buffers) in float32 and add each micro-batch's gradient into "
           "the fp32 buffer, or train in float32 under autocast"});
  context.report(std::move(result));
}

GRADLINT_REGISTER_CHECK(Fp16GradAccumulationCheck, "accum-fp16-grad-accumulation", 12)

} // namespace gradlint
