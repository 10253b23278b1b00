#include "checks/Check.h"

namespace gradlint {

namespace {

/// accum-scheduler-per-micro-batch: a learning-rate scheduler stepped on every
/// micro-batch of an accumulation window, so the schedule runs N times too fast.
class SchedulerPerMicroBatchCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
};

/// The scheduler's step() moves into the boundary branch, right after the
/// optimizer's step() (where LibTorch and PyTorch expect it).
std::optional<FindingFix> schedulerFix(const TrainingLoop &loop, const TrainingEvent &scheduler,
                                       const TrainingEvent &step, CheckContext &context) {
  clang::ASTContext &ast = context.astContext();
  const clang::Stmt *statement = fixits::eventStatement(loop, scheduler, ast);
  if (!statement)
    return std::nullopt;
  std::optional<FindingFix> fix = fixits::moveStatement(
      statement, fixits::blockStatement(step, ast), /*after=*/true,
      "move the scheduler's step() into the boundary branch, right after the optimizer's step()",
      ast);
  if (fix)
    fix->safe = fixits::isTheCallAlone(statement, scheduler, ast);
  return fix;
}

bool stepsAnotherOptimizerEveryMicroBatch(const TrainingLoop &loop) {
  for (const TrainingEvent *step : loop.eventsOf(EventKind::Step))
    if (step->condition == EventCondition::EveryMicroBatch)
      return true;
  return false;
}

} // namespace

void SchedulerPerMicroBatchCheck::check(const TrainingLoop &loop, CheckContext &context) {
  if (!loop.hasWindow())
    return;
  const TrainingEvent *step = loop.boundaryStep();
  if (!step)
    return;
  std::string steps = describeSteps(loop);
  std::string stepsText = loop.window->steps.text.empty() ? "N" : loop.window->steps.text;
  for (const TrainingEvent *scheduler : loop.eventsOf(EventKind::SchedulerStep)) {
    // Stepped once per window (boundary, window start, after the inner loop)
    // it follows the optimizer steps; a second optimizer's scheduler that
    // steps with it on every micro-batch is not part of this window. Under an
    // unrelated condition (`if (i % 100 == 0)`) the period is the code's choice.
    if (scheduler->condition != EventCondition::EveryMicroBatch ||
        scheduler->steppedEveryMicroBatch || scheduler->guardedByUnrelatedCondition)
      continue;
    // A scheduler of another optimizer (a GAN's critic that steps on every
    // batch); of an unknown one, when such an optimizer exists.
    if (scheduler->optimizer ? scheduler->optimizer != step->optimizer
                             : stepsAnotherOptimizerEveryMicroBatch(loop))
      continue;
    Finding result = finding(
        loop.reportLocation(*scheduler),
        "learning-rate scheduler steps on every micro-batch of an accumulation window of " + steps +
            "; the optimizer steps once per window (line " +
            std::to_string(context.line(step->loc)) +
            "), so the schedule advances N times per optimizer step: after k optimizer steps "
            "the learning rate is the one planned for step k*N");
    result.fix = schedulerFix(loop, *scheduler, *step, context);
    result.notes.push_back(windowNote(loop, context));
    result.notes.push_back(
        {step->loc, "fix: step the scheduler in the boundary branch, right after this step() (or "
                    "keep it here and give it a schedule " +
                        stepsText + " times longer)"});
    context.report(std::move(result));
  }
}

GRADLINT_REGISTER_CHECK(SchedulerPerMicroBatchCheck, "accum-scheduler-per-micro-batch", 6)

} // namespace gradlint
