#include "MissingLossDivisionCheck.h"

namespace gradlint {

namespace {

bool dividesBySteps(const TrainingEvent &event) {
  for (const ScaleFactor &factor : event.scaling)
    if (factor.isAccumulationSteps)
      return true;
  return false;
}

} // namespace

void MissingLossDivisionCheck::check(const TrainingLoop &loop, CheckContext &context) {
  if (!loop.hasWindow())
    return;
  const TrainingEvent *step = loop.boundaryStep();
  if (!step)
    return;
  // The alternative of dividing the accumulated gradients at the boundary.
  for (const TrainingEvent *divide : loop.eventsOf(EventKind::GradDivide))
    if (divide->condition == EventCondition::Boundary && divide->order < step->order &&
        dividesBySteps(*divide))
      return;

  std::string steps = describeSteps(loop);
  std::string stepsText = loop.window->steps.text.empty() ? "N" : loop.window->steps.text;
  for (const TrainingEvent *backward : loop.eventsOf(EventKind::Backward)) {
    if (backward->condition != EventCondition::EveryMicroBatch ||
        backward->steppedEveryMicroBatch || dividesBySteps(*backward))
      continue;
    Finding result = finding(
        loop.reportLocation(*backward),
        "loss passed to backward() is not divided by the accumulation steps (" + steps +
            "); backward() sums the gradients of the N micro-batches, so step() at line " +
            std::to_string(context.line(step->loc)) +
            " applies N times the large-batch gradient");
    result.notes.push_back(windowNote(loop, context));
    result.notes.push_back({backward->loc, "fix: divide the loss by " + stepsText +
                                               " before backward(), e.g. (loss / " + stepsText +
                                               ").backward(), or divide the gradients by " +
                                               stepsText + " in the boundary branch before step()"});
    context.report(std::move(result));
  }
}

void MissingLossDivisionCheck::fixProgram(runtime::LoopProgram &program) const {
  for (runtime::LoopOp &op : program.ops)
    if (op.kind == runtime::OpKind::Backward && op.when == runtime::OpWhen::EveryMicroBatch)
      op.dividesBySteps = true;
}

} // namespace gradlint
