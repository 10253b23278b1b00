#include "Lowering.h"
#include "ApiCalls.h"

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

/// The max_norm / clip value of a clip call when it is a positive constant
/// (clip_grad_norm_(params, max_norm, ...), clip_grad_value_(params, value)).
double constantClipLimit(const clang::CallExpr *call, const ValueFacts &facts) {
  if (call->getNumArgs() < 2)
    return 0.0;
  std::optional<double> limit = facts.constantNumber({call->getArg(1), nullptr});
  return limit && *limit > 0 ? *limit : 0.0;
}

} // namespace

LoweredLoop lowerLoop(const TrainingLoop &loop, const ValueFacts *facts) {
  LoweredLoop lowered;
  runtime::LoopProgram &program = lowered.program;
  if (loop.window) {
    const SymbolicValue &steps = loop.window->steps;
    if (steps.constant && *steps.constant >= 1 && *steps.constant <= 64) {
      program.steps = static_cast<int>(*steps.constant);
      lowered.stepsFromCode = true;
    } else {
      program.steps = kDefaultAccumulationSteps;
    }
  } else {
    program.steps = 1;
    lowered.stepsFromCode = true;
  }
  bool allReduces = !loop.eventsOf(EventKind::AllReduce).empty();
  if (loop.worldSize.constant && *loop.worldSize.constant >= 1 && *loop.worldSize.constant <= 16) {
    program.worldSize = static_cast<int>(*loop.worldSize.constant);
    lowered.worldSizeFromCode = true;
  } else {
    program.worldSize = allReduces ? kDefaultWorldSize : 1;
  }

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
    case EventKind::GradReset:
      op.kind = runtime::OpKind::GradReset;
      break;
    case EventKind::Clip:
      op.kind = runtime::OpKind::Clip;
      if (auto *call = llvm::dyn_cast_or_null<clang::CallExpr>(event.stmt)) {
        op.clipByValue = classifyCall(call, facts ? facts->options() : ModelOptions()).kind ==
                          ApiKind::ClipGradValue;
        if (facts)
          op.clipLimit = constantClipLimit(call, *facts);
      }
      break;
    case EventKind::AllReduce:
      op.kind = runtime::OpKind::AllReduce;
      op.reduceOp = event.reduceOp == ReduceOpKind::Average ? runtime::ReduceOp::Avg
                                                             : runtime::ReduceOp::Sum;
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
      continue;
    }
    program.ops.push_back(op);
  }
  if (!hasBackward || !hasStep)
    lowered.problem = "the loop has no backward() and step() the runtime can follow";
  return lowered;
}

} // namespace gradlint
