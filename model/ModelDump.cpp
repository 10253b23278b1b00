#include "model/ModelDump.h"

#include "clang/Basic/SourceManager.h"

namespace gradlint {

namespace {

const char *guardFormName(GuardForm form) {
  switch (form) {
  case GuardForm::Modulo: return "modulo";
  case GuardForm::CounterReachesN: return "counter-reaches-n";
  case GuardForm::NestedLoop: return "nested-loop";
  }
  return "?";
}

const char *reduceOpName(ReduceOpKind op) {
  switch (op) {
  case ReduceOpKind::Sum: return "sum";
  case ReduceOpKind::Average: return "avg";
  case ReduceOpKind::Unknown: return "unknown";
  }
  return "?";
}

} // namespace

void dumpModel(const TrainingLoopModel &model, const ValueFacts &facts, llvm::raw_ostream &out) {
  const clang::SourceManager &sm = facts.context().getSourceManager();
  auto where = [&](clang::SourceLocation loc) {
    loc = sm.getExpansionLoc(loc);
    if (loc.isInvalid())
      return std::string("?");
    return std::to_string(sm.getExpansionLineNumber(loc)) + ":" +
           std::to_string(sm.getExpansionColumnNumber(loc));
  };
  for (const TrainingLoop &loop : model.loops) {
    out << (loop.kind == LoopKind::Loop ? "loop" : "step-function") << " at " << where(loop.loc);
    if (loop.function)
      out << " in " << loop.function->getQualifiedNameAsString();
    out << "\n";
    if (loop.window) {
      const AccumulationWindow &window = *loop.window;
      out << "  window: N = " << window.steps.describe() << ", guard "
          << guardFormName(window.guard.form) << " at " << where(window.guard.loc) << ", residue "
          << window.guard.residue;
      if (window.guard.viaEarlyContinue)
        out << ", early-continue";
      if (window.guard.viaFlag)
        out << ", flag";
      if (window.guard.viaHelper)
        out << ", helper";
      if (window.guard.lastBatchExtension)
        out << ", last-batch";
      out << "\n";
    } else {
      out << "  window: none (step() on every micro-batch)\n";
    }
    if (loop.end.counter != CounterScope::Unknown || loop.end.flush || loop.end.epochReset) {
      out << "  loop end: counter "
          << (loop.end.counter == CounterScope::RestartsWithLoop ? "restarts with the loop"
              : loop.end.counter == CounterScope::RunsAcross     ? "runs across epochs"
                                                                 : "unknown");
      if (loop.end.epochLoop)
        out << ", epoch loop at " << where(loop.end.epochLoop->getBeginLoc());
      if (loop.end.flush)
        out << ", flush at " << where(loop.end.flush->getBeginLoc());
      if (loop.end.epochReset)
        out << ", epoch reset at " << where(loop.end.epochReset->getBeginLoc());
      if (loop.end.batchCountMultipleOfSteps)
        out << ", batches a multiple of N";
      else if (loop.end.batchCountValue)
        out << ", batches = " << *loop.end.batchCountValue;
      out << "\n";
    }
    for (const clang::CallExpr *call : loop.opaqueCalls)
      out << "  opaque call at " << where(call->getBeginLoc()) << "\n";
    if (loop.worldSize.known())
      out << "  world size: " << loop.worldSize.describe() << "\n";
    // The N and W every reader of the loop uses (warnings, --confirm, --plot).
    const TrainingLoop::RunValues run = loop.runValues();
    out << "  run: N = " << run.steps << (run.stepsFromCode ? "" : " (assumed)")
        << ", W = " << run.worldSize
        << (run.worldSize > 1 && !run.worldSizeFromCode ? " (assumed)" : "") << "\n";
    for (const TrainingEvent &event : loop.events) {
      out << "  " << event.order << " " << eventKindName(event.kind) << " at " << where(event.loc)
          << " [" << eventConditionName(event.condition) << "]";
      if (event.guardedByUnrelatedCondition)
        out << " guarded";
      if (event.insideInnerLoop)
        out << " inner-loop";
      if (event.steppedEveryMicroBatch)
        out << " other-optimizer";
      if (event.sharedBackward)
        out << " shared";
      if (event.optimizer)
        out << " optimizer=" << event.optimizer->getName();
      if (event.kind == EventKind::AllReduce)
        out << " op=" << reduceOpName(event.reduceOp);
      for (const CallFrame &frame : event.callChain)
        out << " via " << frame.callee->getNameAsString() << "()";
      auto printFactor = [&](const ScaleFactor &factor) {
        out << "/(" << facts.text(factor.divisor) << ")";
        if (factor.isAccumulationSteps)
          out << "[N]";
        if (factor.mayBeAccumulationSteps)
          out << "[N?]";
        if (factor.isRuntimeWindowValue)
          out << "[run-time]";
        if (factor.isWorldSize)
          out << "[W]";
      };
      for (const ScaleFactor &factor : event.scaling) {
        out << " ";
        printFactor(factor);
      }
      if (event.algorithm != OptimizerAlgorithm::Unknown)
        out << (event.algorithm == OptimizerAlgorithm::Sgd ? " sgd" : " adaptive");
      for (const ScaleFactor &factor : event.learningRateScaling) {
        out << " lr";
        printFactor(factor);
      }
      out << "\n";
    }
  }
}

} // namespace gradlint
