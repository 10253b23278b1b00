#include "confirm/Lowering.h"

namespace gradlint {

namespace {

runtime::OpWhen whenOf(EventCondition condition) {
  switch (condition) {
  case EventCondition::EveryMicroBatch: return runtime::OpWhen::EveryMicroBatch;
  case EventCondition::Boundary: return runtime::OpWhen::Boundary;
  case EventCondition::WindowStart: return runtime::OpWhen::WindowStart;
  case EventCondition::NotBoundary: return runtime::OpWhen::NotBoundary;
  case EventCondition::OncePerWindowElsewhere: return runtime::OpWhen::Elsewhere;
  }
  return runtime::OpWhen::EveryMicroBatch;
}

void readScaling(const TrainingEvent &event, runtime::LoopOp &op) {
  for (const ScaleFactor &factor : event.scaling) {
    op.dividesBySteps = op.dividesBySteps || factor.isAccumulationSteps;
    op.dividesByWorldSize = op.dividesByWorldSize || factor.isWorldSize;
  }
}

} // namespace

LoweredLoop lowerLoop(const TrainingLoop &loop) {
  LoweredLoop lowered;
  runtime::LoopProgram &program = lowered.program;
  const TrainingLoop::RunValues run = loop.runValues();
  program.steps = run.steps;
  lowered.stepsFromCode = run.stepsFromCode;
  program.worldSize = run.worldSize;
  lowered.worldSizeFromCode = run.worldSizeFromCode;

  bool hasStep = false, hasBackward = false;
  for (const TrainingEvent &event : loop.events) {
    if (event.steppedEveryMicroBatch)
      continue; // a second, non-accumulating optimizer's work
    runtime::LoopOp op;
    op.when = whenOf(event.condition);
    switch (event.kind) {
    case EventKind::Backward:
      op.kind = runtime::OpKind::Backward;
      readScaling(event, op);
      hasBackward = true;
      break;
    case EventKind::GradReset: op.kind = runtime::OpKind::GradReset; break;
    case EventKind::Clip:
      op.kind = runtime::OpKind::Clip;
      op.clipByValue = event.clipByValue;
      op.clipLimit = event.clipLimit.value_or(0.0);
      break;
    case EventKind::AllReduce:
      op.kind = runtime::OpKind::AllReduce;
      op.reduceOp =
          event.reduceOp == ReduceOpKind::Average ? runtime::ReduceOp::Avg : runtime::ReduceOp::Sum;
      break;
    case EventKind::GradDivide:
      op.kind = runtime::OpKind::GradDivide;
      readScaling(event, op);
      if (!op.dividesBySteps && !op.dividesByWorldSize)
        continue; // a division by something the runtime does not model
      break;
    case EventKind::Step:
      op.kind = runtime::OpKind::Step;
      hasStep = true;
      break;
    case EventKind::LossComputation:
    case EventKind::SchedulerStep:
    case EventKind::GradBufferAdd: continue;
    }
    program.ops.push_back(op);
  }
  if (!hasBackward || !hasStep)
    lowered.problem = "the loop has no backward() and step() the runtime can follow";
  return lowered;
}

} // namespace gradlint
