#include "checks/Check.h"

namespace gradlint {

namespace {

/// accum-clip-before-sync: gradient clipping that runs before the gradient
/// all-reduce, so each rank clips by its own local norm instead of the
/// global gradient's.
class ClipBeforeSyncCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  ConfirmationPlan confirmation() const override { return {}; }
};

/// The clip moves to right before step(), after every all-reduce of the window;
/// when a clip runs there already, it is deleted.
std::optional<FindingFix> clipFix(const TrainingLoop &loop, const TrainingEvent &clip,
                                  const TrainingEvent &sync, const TrainingEvent &step,
                                  CheckContext &context) {
  clang::ASTContext &ast = context.astContext();
  const clang::Stmt *statement = clip.condition == EventCondition::Boundary
                                     ? fixits::blockStatement(clip, ast)
                                     : fixits::eventStatement(loop, clip, ast);
  const clang::Stmt *anchor = fixits::blockStatement(step, ast);
  if (!statement || !anchor)
    return std::nullopt;
  // A clip after the all-reduce already clips the global gradient: the local
  // one goes.
  for (const TrainingEvent *other : loop.eventsOf(EventKind::Clip))
    if (other->order > sync.order && other->order < step.order &&
        other->condition == step.condition) {
      std::optional<SourceEdit> removal = fixits::deleteStatement(statement, ast);
      if (!removal)
        return std::nullopt;
      return FindingFix{"delete the local clipping: the gradients are clipped again after the "
                        "all-reduce",
                        fixits::isTheCallAlone(statement, clip, ast),
                        {*removal}};
    }
  // In the boundary branch, the clip must move within its own block.
  if (clip.condition == EventCondition::Boundary && !fixits::inSameBlock(statement, anchor, ast))
    return std::nullopt;
  std::optional<FindingFix> fix =
      fixits::moveStatement(statement, anchor, /*after=*/false,
                            "move the clipping after the all-reduce, right before step()", ast);
  if (fix)
    fix->safe = fixits::isTheCallAlone(statement, clip, ast);
  return fix;
}

} // namespace

void ClipBeforeSyncCheck::check(const TrainingLoop &loop, CheckContext &context) {
  // Without accumulation the same bug exists: clip, all-reduce and step() on
  // every iteration.
  const TrainingEvent *step = nullptr;
  if (loop.hasWindow())
    step = loop.boundaryStep();
  else if (std::vector<const TrainingEvent *> steps = loop.eventsOf(EventKind::Step);
           !steps.empty())
    step = steps.front();
  if (!step)
    return;
  // The last all-reduce of the gradients before step(), in the same segment.
  const TrainingEvent *sync = nullptr;
  for (const TrainingEvent *allReduce : loop.eventsOf(EventKind::AllReduce))
    if (allReduce->order < step->order &&
        allReduce->steppedEveryMicroBatch == step->steppedEveryMicroBatch)
      sync = allReduce;
  if (!sync)
    return;
  for (const TrainingEvent *clip : loop.eventsOf(EventKind::Clip)) {
    if (clip->steppedEveryMicroBatch != step->steppedEveryMicroBatch)
      continue;
    // A clip on every micro-batch with the all-reduce only in the boundary
    // micro-batch: the window's earlier micro-batches clip before it, even
    // where the boundary's own clip follows the sync.
    bool earlierMicroBatches = loop.hasWindow() && sync->condition == EventCondition::Boundary &&
                               (clip->condition == EventCondition::EveryMicroBatch ||
                                clip->condition == EventCondition::NotBoundary);
    if (clip->order > sync->order && !earlierMicroBatches)
      continue;
    std::string when = clip->order > sync->order
                           ? "on the window's micro-batches before the last, gradient clipping "
                             "runs before the gradient all-reduce at line "
                           : "gradient clipping runs before the gradient all-reduce at line ";
    Finding result = finding(
        loop.reportLocation(*clip),
        when + std::to_string(context.line(sync->loc)) +
            "; each rank clips its own local gradient by its own norm, so ranks scale their "
            "contributions differently and the synchronised gradient is not the global "
            "gradient clipped to the limit");
    // After the boundary's own all-reduce, the clip runs on every micro-batch:
    // accum-per-micro-batch-clip moves it before step(), which fixes this too
    // (one fix, not two overlapping ones).
    if (clip->order < sync->order)
      result.fix = clipFix(loop, *clip, *sync, *step, context);
    result.notes.push_back({sync->loc, "the gradients are all-reduced here, after the clip"});
    result.notes.push_back(
        {step->loc, "fix: clip after the all-reduce, right before this step(), so every rank "
                    "clips the same global gradient"});
    context.report(std::move(result));
  }
}

GRADLINT_REGISTER_CHECK(ClipBeforeSyncCheck, "accum-clip-before-sync", 8)

} // namespace gradlint
