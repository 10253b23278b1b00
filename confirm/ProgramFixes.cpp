#include "confirm/ProgramFixes.h"

#include <map>
#include <optional>

namespace gradlint {

size_t stepIndex(const runtime::LoopProgram &program) {
  size_t any = program.ops.size();
  for (size_t i = 0; i < program.ops.size(); ++i) {
    if (program.ops[i].kind != runtime::OpKind::Step)
      continue;
    if (program.ops[i].when == runtime::OpWhen::Boundary)
      return i;
    any = std::min(any, i);
  }
  return any;
}

void insertAtStep(runtime::LoopProgram &program, runtime::LoopOp op, bool after) {
  size_t index = stepIndex(program);
  if (index < program.ops.size() && after)
    ++index;
  op.when = runtime::OpWhen::Boundary;
  program.ops.insert(program.ops.begin() + static_cast<std::ptrdiff_t>(index), op);
}

void removeOps(runtime::LoopProgram &program,
               const std::function<bool(const runtime::LoopOp &)> &remove) {
  std::vector<runtime::LoopOp> kept;
  for (const runtime::LoopOp &op : program.ops)
    if (!remove(op))
      kept.push_back(op);
  program.ops = std::move(kept);
}

namespace {

// SummaryFix::ResetRightAfterStep
void resetRightAfterStep(runtime::LoopProgram &program) {
  // Keep resets at the window start before any backward() and right after
  // step(); move the others to right after step().
  size_t firstBackward = program.ops.size();
  for (size_t i = 0; i < program.ops.size(); ++i)
    if (program.ops[i].kind == runtime::OpKind::Backward) {
      firstBackward = i;
      break;
    }
  size_t step = stepIndex(program);
  std::vector<runtime::LoopOp> kept;
  for (size_t i = 0; i < program.ops.size(); ++i) {
    const runtime::LoopOp &op = program.ops[i];
    bool safe = op.kind != runtime::OpKind::GradReset ||
                (op.when == runtime::OpWhen::Boundary && i > step) ||
                (op.when == runtime::OpWhen::WindowStart && i < firstBackward);
    if (safe)
      kept.push_back(op);
  }
  program.ops = std::move(kept);
  bool resetAfterStep = false;
  for (size_t i = stepIndex(program); i < program.ops.size(); ++i)
    resetAfterStep = resetAfterStep || program.ops[i].kind == runtime::OpKind::GradReset;
  if (!resetAfterStep) {
    runtime::LoopOp reset;
    reset.kind = runtime::OpKind::GradReset;
    insertAtStep(program, reset, /*after=*/true);
  }
}

// SummaryFix::DivideLossBySteps
void divideLossBySteps(runtime::LoopProgram &program) {
  for (runtime::LoopOp &op : program.ops)
    if (op.kind == runtime::OpKind::Backward && op.when == runtime::OpWhen::EveryMicroBatch)
      op.dividesBySteps = true;
}

// SummaryFix::ClipAtBoundary
void clipAtBoundary(runtime::LoopProgram &program) {
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

// SummaryFix::SyncAtBoundary
void syncAtBoundary(runtime::LoopProgram &program) {
  // The all-reduce (and a division by W that follows it every time) move to
  // the boundary, before step().
  std::optional<runtime::LoopOp> sync, average;
  removeOps(program, [&](const runtime::LoopOp &op) {
    if (op.when == runtime::OpWhen::Boundary)
      return false;
    if (op.kind == runtime::OpKind::AllReduce) {
      sync = sync ? sync : op;
      return true;
    }
    if (op.kind == runtime::OpKind::GradDivide && op.dividesByWorldSize && sync) {
      average = average ? average : op;
      return true;
    }
    return false;
  });
  if (sync)
    insertAtStep(program, *sync, /*after=*/false);
  if (average)
    insertAtStep(program, *average, /*after=*/false);
}

// SummaryFix::AverageOverRanksOnce
void averageOverRanksOnce(runtime::LoopProgram &program) {
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

} // namespace

const ProgramFix *programFixFor(ConfirmationPlan::SummaryFix fix) {
  using Fix = ConfirmationPlan::SummaryFix;
  static const std::map<Fix, ProgramFix> fixes = {
      {Fix::ResetRightAfterStep, resetRightAfterStep},
      {Fix::DivideLossBySteps, divideLossBySteps},
      {Fix::ClipAtBoundary, clipAtBoundary},
      {Fix::SyncAtBoundary, syncAtBoundary},
      {Fix::AverageOverRanksOnce, averageOverRanksOnce},
  };
  auto found = fixes.find(fix);
  return found == fixes.end() ? nullptr : &found->second;
}

} // namespace gradlint
