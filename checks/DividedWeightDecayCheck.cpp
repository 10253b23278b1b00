#include "checks/Check.h"

namespace gradlint {

namespace {

/// accum-divided-weight-decay: the optimizer's weight decay divided by the
/// accumulation steps. Weight decay acts once per step(), not once per
/// micro-batch, so the division leaves it N times too weak.
class DividedWeightDecayCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  ConfirmationPlan confirmation() const override {
    ConfirmationPlan plan;
    plan.aboutOptimizerOptions = true;
    return plan;
  }
};

} // namespace

void DividedWeightDecayCheck::check(const TrainingLoop &loop, CheckContext &context) {
  if (!loop.hasWindow())
    return;
  const TrainingEvent *step = loop.boundaryStep();
  if (!step)
    return;
  std::string steps = describeSteps(loop);
  for (const ScaleFactor &factor : step->weightDecayScaling) {
    if (!factor.isAccumulationSteps)
      continue;
    Finding result =
        finding(factor.loc,
                "weight decay is divided by the accumulation steps (" + steps +
                    "); step() at line " + std::to_string(context.line(step->loc)) +
                    " applies it once per window, not once per micro-batch, so the division makes "
                    "it N times weaker than the same decay in large-batch training");
    std::optional<SourceEdit> edit =
        fixits::dropOptionDivision(factor.site, "weight_decay", context.astContext());
    if (!edit)
      edit = fixits::dropStoredDivision(factor.site, context.astContext());
    if (edit)
      result.fix = FindingFix{"drop the division of the weight decay", true, {*edit}};
    result.notes.push_back(windowNote(loop, context));
    result.notes.push_back({step->loc, "this step() applies the weight decay once per window of " +
                                           steps + " micro-batches"});
    context.report(std::move(result));
  }
}

GRADLINT_REGISTER_CHECK(DividedWeightDecayCheck, "accum-divided-weight-decay", 9)

} // namespace gradlint
