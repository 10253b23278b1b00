#include "DoubleWorldSizeScalingCheck.h"

namespace gradlint {

namespace {

const ScaleFactor *worldSizeFactor(const TrainingEvent &event) {
  for (const ScaleFactor &factor : event.scaling)
    if (factor.isWorldSize)
      return &factor;
  return nullptr;
}

} // namespace

void DoubleWorldSizeScalingCheck::check(const TrainingLoop &loop, CheckContext &context) {
  std::vector<const TrainingEvent *> syncs = loop.eventsOf(EventKind::AllReduce);
  if (syncs.empty())
    return;

  // What already averages over ranks: an AVG all-reduce, or the first
  // division of the gradients by the world size.
  const TrainingEvent *averagingSync = nullptr;
  for (const TrainingEvent *sync : syncs)
    if (sync->reduceOp == ReduceOpKind::Average && !averagingSync)
      averagingSync = sync;
  const TrainingEvent *averagingDivide = nullptr;
  if (!averagingSync)
    for (const TrainingEvent *divide : loop.eventsOf(EventKind::GradDivide))
      if (worldSizeFactor(*divide)) {
        averagingDivide = divide;
        break;
      }
  if (!averagingSync && !averagingDivide)
    return;

  std::string world = loop.worldSize.known() ? "W = " + loop.worldSize.describe() : "W";
  FindingNote averagedNote =
      averagingSync
          ? FindingNote{loop.reportLocation(*averagingSync),
                        "the all-reduce already averages the gradients over ranks (AVG)"}
          : FindingNote{averagingDivide->loc,
                        "the summed gradients are already divided by the world size here"};

  auto reportAt = [&](const ScaleFactor &factor, const std::string &what) {
    Finding result = finding(
        factor.loc, what + " divided by the world size (" + world +
                        ") although the gradient all-reduce already averages over ranks; the "
                        "world size is divided out twice, so the update is 1/W of the "
                        "large-batch update");
    result.notes.push_back(averagedNote);
    result.notes.push_back({factor.loc, "fix: drop the world-size factor from this division; "
                                        "divide the loss by the accumulation steps only"});
    context.report(std::move(result));
  };

  for (const TrainingEvent &event : loop.events) {
    if (&event == averagingDivide)
      continue;
    const ScaleFactor *factor = worldSizeFactor(event);
    if (!factor)
      continue;
    if (event.kind == EventKind::Backward)
      reportAt(*factor, "loss is");
    else if (event.kind == EventKind::GradDivide)
      reportAt(*factor, "gradients are");
  }
}

void DoubleWorldSizeScalingCheck::fixProgram(runtime::LoopProgram &program) const {
  // Keep one averaging: an AVG all-reduce, or else the first division of the
  // gradients by W; drop every other world-size factor.
  bool averagedByReduce = false;
  for (const runtime::LoopOp &op : program.ops)
    averagedByReduce = averagedByReduce || (op.kind == runtime::OpKind::AllReduce &&
                                            op.reduceOp == runtime::ReduceOp::Avg);
  bool keptDivision = averagedByReduce;
  removeOps(program, [&](const runtime::LoopOp &op) {
    if (op.kind != runtime::OpKind::GradDivide || !op.dividesByWorldSize || op.dividesBySteps)
      return false;
    if (!keptDivision) {
      keptDivision = true;
      return false;
    }
    return true;
  });
  for (runtime::LoopOp &op : program.ops)
    if (op.kind == runtime::OpKind::Backward || op.kind == runtime::OpKind::GradDivide)
      if (op.dividesBySteps || op.kind == runtime::OpKind::Backward)
        op.dividesByWorldSize = false;
}

} // namespace gradlint
