#include "model/TrainingLoopModel.h"

namespace gradlint {

std::string SymbolicValue::describe() const {
  if (constant && !text.empty() && text != std::to_string(*constant))
    return text + " = " + std::to_string(*constant);
  if (!text.empty())
    return text;
  if (constant)
    return std::to_string(*constant);
  return "N";
}

const char *eventKindName(EventKind kind) {
  switch (kind) {
  case EventKind::LossComputation: return "loss";
  case EventKind::Backward: return "backward";
  case EventKind::GradReset: return "grad-reset";
  case EventKind::Clip: return "clip";
  case EventKind::AllReduce: return "all-reduce";
  case EventKind::GradDivide: return "grad-divide";
  case EventKind::Step: return "step";
  case EventKind::SchedulerStep: return "scheduler-step";
  case EventKind::GradBufferAdd: return "grad-buffer-add";
  }
  return "?";
}

const char *eventConditionName(EventCondition cond) {
  switch (cond) {
  case EventCondition::EveryMicroBatch: return "every-micro-batch";
  case EventCondition::Boundary: return "boundary";
  case EventCondition::WindowStart: return "window-start";
  case EventCondition::NotBoundary: return "not-boundary";
  case EventCondition::OncePerWindowElsewhere: return "once-per-window";
  }
  return "?";
}

std::vector<const TrainingEvent *> TrainingLoop::eventsOf(EventKind kind) const {
  std::vector<const TrainingEvent *> result;
  for (const TrainingEvent &event : events)
    if (event.kind == kind)
      result.push_back(&event);
  return result;
}

TrainingLoop::RunValues TrainingLoop::runValues() const {
  // Stand-ins small enough to run and large enough to show a factor of N or W.
  constexpr int kAssumedSteps = 4, kAssumedWorldSize = 2;
  RunValues run;
  run.assumedWorldSize = kAssumedWorldSize;
  if (window) {
    std::optional<int64_t> steps = window->steps.constant;
    run.stepsFromCode = steps && *steps >= 1 && *steps <= 64;
    // Not a constant: its default when the command line keeps it (the value
    // the warnings state) and it accumulates at all, else the stand-in.
    std::optional<int64_t> fallback = window->steps.inputDefault;
    run.steps = run.stepsFromCode                               ? static_cast<int>(*steps)
                : fallback && *fallback >= 2 && *fallback <= 64 ? static_cast<int>(*fallback)
                                                                : kAssumedSteps;
  }
  std::optional<int64_t> world = worldSize.constant;
  run.worldSizeFromCode = world && *world >= 1 && *world <= 16;
  std::optional<int64_t> worldDefault = worldSize.inputDefault;
  if (worldDefault && *worldDefault >= 1 && *worldDefault <= 16)
    run.assumedWorldSize = static_cast<int>(*worldDefault);
  if (run.worldSizeFromCode)
    run.worldSize = static_cast<int>(*world);
  else if (!eventsOf(EventKind::AllReduce).empty())
    run.worldSize = run.assumedWorldSize;
  return run;
}

const TrainingEvent *TrainingLoop::boundaryStep() const {
  for (const TrainingEvent &event : events)
    if (event.kind == EventKind::Step && event.condition == EventCondition::Boundary)
      return &event;
  for (const TrainingEvent &event : events)
    if (event.kind == EventKind::Step)
      return &event;
  return nullptr;
}

bool TrainingLoop::runsAfter(const TrainingEvent &earlier, const TrainingEvent &later) const {
  if (later.order <= earlier.order)
    return false;
  if (!earlier.skipsRestOf || !later.stmt)
    return true;
  clang::SourceRange scope = earlier.skipsRestOf->getSourceRange();
  clang::SourceRange at = later.stmt->getSourceRange();
  // Source ranges of one file: the later event is inside the skipped statement.
  return !(scope.getBegin() <= at.getBegin() && at.getEnd() <= scope.getEnd());
}

clang::SourceLocation TrainingLoop::reportLocation(const TrainingEvent &event) const {
  for (const CallFrame &frame : event.callChain) {
    bool trainsInside = false;
    for (const TrainingEvent &other : events) {
      if (other.kind != EventKind::Backward && other.kind != EventKind::Step)
        continue;
      for (const CallFrame &otherFrame : other.callChain)
        trainsInside = trainsInside || otherFrame.call == frame.call;
    }
    if (!trainsInside)
      return frame.call->getBeginLoc();
  }
  return event.loc;
}

} // namespace gradlint
