#include "checks/Check.h"

namespace gradlint {

namespace {

/// accum-per-micro-batch-clip: clip_grad_norm_ / clip_grad_value_ on every
/// micro-batch instead of once on the accumulated gradient.
class PerMicroBatchClipCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  ConfirmationPlan confirmation() const override {
    ConfirmationPlan plan;
    plan.programFix = ConfirmationPlan::ProgramFix::ClipAtBoundary;
    return plan;
  }
};

/// The clip moves to right before the boundary step(); when the boundary
/// branch clips already, the misplaced clip is deleted.
std::optional<FindingFix> clipFix(const TrainingLoop &loop, const TrainingEvent &clip,
                                  const TrainingEvent &step, CheckContext &context) {
  clang::ASTContext &ast = context.astContext();
  const clang::Stmt *statement = fixits::eventStatement(loop, clip, ast);
  // A guard unrelated to the window moves with it (unsafe: it is then
  // evaluated at the boundary only).
  bool guarded = !statement;
  if (guarded)
    statement = fixits::unrelatedGuardStatement(loop, clip, ast);
  if (!statement)
    return std::nullopt;
  for (const TrainingEvent *other : loop.eventsOf(EventKind::Clip))
    if (other->condition == EventCondition::Boundary && other->order < step.order) {
      std::optional<SourceEdit> removal = fixits::deleteStatement(statement, ast);
      if (!removal)
        return std::nullopt;
      return FindingFix{"delete the clipping: the boundary branch already clips before step()",
                        !guarded,
                        {*removal}};
    }
  std::optional<FindingFix> fix =
      fixits::moveStatement(statement, fixits::blockStatement(step, ast), /*after=*/false,
                            "move the clipping into the boundary branch, right before step()", ast);
  if (fix)
    fix->safe = fixits::isTheCallAlone(statement, clip, ast);
  return fix;
}

} // namespace

void PerMicroBatchClipCheck::check(const TrainingLoop &loop, CheckContext &context) {
  if (!loop.hasWindow())
    return;
  const TrainingEvent *step = loop.boundaryStep();
  if (!step)
    return;
  std::string steps = describeSteps(loop);
  for (const TrainingEvent *clip : loop.eventsOf(EventKind::Clip)) {
    if (clip->condition == EventCondition::Boundary || clip->steppedEveryMicroBatch)
      continue;
    std::string when = clip->condition == EventCondition::EveryMicroBatch
                           ? "on every micro-batch"
                           : "before the last micro-batch";
    Finding result =
        finding(loop.reportLocation(*clip),
                "gradient clipping runs " + when + " of an accumulation window of " + steps +
                    "; it clips a partial sum of the window's gradients and rescales the earlier "
                    "micro-batches again each time, instead of clipping the accumulated gradient "
                    "once before step()");
    result.fix = clipFix(loop, *clip, *step, context);
    result.notes.push_back(windowNote(loop, context));
    result.notes.push_back(
        {step->loc, "fix: clip in the boundary branch, right before this step()"});
    context.report(std::move(result));
  }
}

GRADLINT_REGISTER_CHECK(PerMicroBatchClipCheck, "accum-per-micro-batch-clip", 3)

} // namespace gradlint
