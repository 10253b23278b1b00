#include "PerMicroBatchClipCheck.h"

namespace gradlint {

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
    Finding result = finding(
        loop.reportLocation(*clip),
        "gradient clipping runs " + when + " of an accumulation window of " + steps +
            "; it clips a partial sum of the window's gradients and rescales the earlier "
            "micro-batches again each time, instead of clipping the accumulated gradient "
            "once before step()");
    result.notes.push_back(windowNote(loop, context));
    result.notes.push_back({step->loc, "fix: clip in the boundary branch, right before this step()"});
    context.report(std::move(result));
  }
}

void PerMicroBatchClipCheck::fixProgram(runtime::LoopProgram &program) const {
  std::optional<runtime::LoopOp> moved;
  removeOps(program, [&](const runtime::LoopOp &op) {
    bool misplaced = op.kind == runtime::OpKind::Clip && op.when != runtime::OpWhen::Boundary;
    if (misplaced && !moved)
      moved = op;
    return misplaced;
  });
  if (moved)
    insertAtStep(program, *moved, /*after=*/false);
}

} // namespace gradlint
