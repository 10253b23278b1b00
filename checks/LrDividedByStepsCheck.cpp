#include "checks/Check.h"

namespace gradlint {

namespace {

/// accum-lr-divided-by-steps: the learning rate of an adaptive optimizer
/// (Adam, AdamW, RMSprop, Adagrad) divided by the accumulation steps instead
/// of the loss. These optimizers normalise the gradient's scale, so the
/// division does not undo the summed micro-batches: it shrinks every update N times.
class LrDividedByStepsCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  ConfirmationPlan confirmation() const override {
    ConfirmationPlan plan;
    plan.aboutOptimizerOptions = true;
    return plan;
  }

private:
  void reportDivisions(const TrainingLoop &loop, const TrainingEvent &step,
                       const std::string &steps, const std::string &stepsText,
                       CheckContext &context);
};

} // namespace

void LrDividedByStepsCheck::check(const TrainingLoop &loop, CheckContext &context) {
  if (!loop.hasWindow())
    return;
  std::string steps = describeSteps(loop);
  std::string stepsText = loop.window->steps.text.empty() ? "N" : loop.window->steps.text;
  // Every optimizer that steps at the boundary (a second one may follow the first).
  for (const TrainingEvent *step : loop.eventsOf(EventKind::Step)) {
    // With SGD lr / N equals loss / N (the update is linear in both): no finding.
    if (step->condition != EventCondition::Boundary || step->steppedEveryMicroBatch ||
        step->algorithm != OptimizerAlgorithm::Adaptive)
      continue;
    reportDivisions(loop, *step, steps, stepsText, context);
  }
}

void LrDividedByStepsCheck::reportDivisions(const TrainingLoop &loop, const TrainingEvent &step,
                                            const std::string &steps, const std::string &stepsText,
                                            CheckContext &context) {
  for (const ScaleFactor &factor : step.learningRateScaling) {
    if (!factor.isAccumulationSteps)
      continue;
    Finding result = finding(
        factor.loc,
        "learning rate of an adaptive optimizer is divided by the accumulation steps (" + steps +
            "); Adam, AdamW, RMSprop and Adagrad divide the update by the gradient's own scale, "
            "so this does not stand in for dividing the loss: every update of step() at line " +
            std::to_string(context.line(step.loc)) + " is N times smaller than intended");
    std::optional<SourceEdit> edit =
        fixits::dropOptionDivision(factor.site, "lr", context.astContext());
    if (!edit)
      edit = fixits::dropStoredDivision(factor.site, context.astContext());
    if (edit)
      result.fix = FindingFix{"drop the division of the learning rate", true, {*edit}};
    result.notes.push_back(windowNote(loop, context));
    result.notes.push_back({step.loc, "fix: keep the learning rate and divide the loss by " +
                                          stepsText + " before backward()"});
    context.report(std::move(result));
  }
}

GRADLINT_REGISTER_CHECK(LrDividedByStepsCheck, "accum-lr-divided-by-steps", 10)

} // namespace gradlint
