#include "checks/Check.h"

namespace gradlint {

namespace {

/// accum-misplaced-zero-grad: a gradient reset that can run between a
/// backward() of an accumulation window and the step() that ends it.
class MisplacedZeroGradCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  ConfirmationPlan confirmation() const override {
    ConfirmationPlan plan;
    plan.programFix = ConfirmationPlan::ProgramFix::ResetRightAfterStep;
    return plan;
  }
};

/// Whether `optimizer` steps on every micro-batch (a second, non-accumulating
/// optimizer such as a GAN's): its resets are not part of the window.
bool stepsEveryMicroBatch(const TrainingLoop &loop, const clang::ValueDecl *optimizer) {
  if (!optimizer)
    return false;
  for (const TrainingEvent *step : loop.eventsOf(EventKind::Step))
    if (step->optimizer == optimizer && step->condition == EventCondition::EveryMicroBatch)
      return true;
  return false;
}

/// `if (<window guard>) reset;` after backward(): the `if` goes, and the reset
/// runs right after the boundary step() instead (unless one runs there).
std::optional<FindingFix> guardedResetFix(const TrainingLoop &loop, const TrainingEvent &reset,
                                          const TrainingEvent &step, clang::ASTContext &ast) {
  const clang::IfStmt *guard = fixits::soleGuardOf(loop, reset, ast);
  const auto *call = llvm::dyn_cast_or_null<clang::Expr>(fixits::blockStatement(reset, ast));
  if (!guard || !call)
    return std::nullopt;
  std::optional<SourceEdit> removal = fixits::deleteStatement(guard, ast);
  if (!removal)
    return std::nullopt;
  // Unsafe: the first window no longer starts from a reset of its own.
  FindingFix fix{"reset the gradients in the boundary branch, right after step(), instead of "
                 "under their own guard",
                 false,
                 {*removal}};
  for (const TrainingEvent *other : loop.eventsOf(EventKind::GradReset))
    if (other->condition == EventCondition::Boundary && other->order > step.order &&
        other->optimizer == reset.optimizer && other->module == reset.module) {
      fix.description = "delete the guarded reset: the boundary branch already resets after step()";
      return fix;
    }
  std::optional<std::string> text = fixits::operandText(call, ast);
  std::optional<SourceEdit> placed =
      text ? fixits::insertStatement(fixits::blockStatement(step, ast), /*after=*/true, *text + ";",
                                     ast)
           : std::nullopt;
  if (!placed)
    return std::nullopt;
  fix.edits.push_back(*placed);
  return fix;
}

/// A reset that runs on every micro-batch moves to right after the boundary
/// step(); when one already runs there, the misplaced one is deleted.
std::optional<FindingFix> resetFix(const TrainingLoop &loop, const TrainingEvent &reset,
                                   const TrainingEvent &step, CheckContext &context) {
  clang::ASTContext &ast = context.astContext();
  if (reset.condition == EventCondition::Boundary) {
    // Before step() in the boundary branch: it moves to right after it.
    const clang::Stmt *statement = fixits::blockStatement(reset, ast);
    const clang::Stmt *anchor = fixits::blockStatement(step, ast);
    if (!fixits::inSameBlock(statement, anchor, ast))
      return std::nullopt;
    return fixits::moveStatement(statement, anchor, /*after=*/true,
                                 "move the reset to right after step()", ast);
  }
  if (reset.condition == EventCondition::WindowStart ||
      reset.condition == EventCondition::OncePerWindowElsewhere)
    return guardedResetFix(loop, reset, step, ast);
  if (reset.condition != EventCondition::EveryMicroBatch)
    return std::nullopt;
  const clang::Stmt *statement = fixits::eventStatement(loop, reset, ast);
  if (!statement)
    return std::nullopt;
  for (const TrainingEvent *other : loop.eventsOf(EventKind::GradReset))
    if (other->condition == EventCondition::Boundary && other->order > step.order &&
        other->optimizer == reset.optimizer && other->module == reset.module) {
      std::optional<SourceEdit> removal = fixits::deleteStatement(statement, ast);
      if (!removal)
        return std::nullopt;
      return FindingFix{
          "delete the reset: the boundary branch already resets after step()", true, {*removal}};
    }
  std::optional<FindingFix> fix =
      fixits::moveStatement(statement, fixits::blockStatement(step, ast), /*after=*/true,
                            "move the reset into the boundary branch, right after step()", ast);
  if (fix)
    fix->safe = fixits::isTheCallAlone(statement, reset, ast);
  return fix;
}

/// Whether two events run in the same invocation of the same helpers.
bool sameInvocation(const TrainingEvent &a, const TrainingEvent &b) {
  if (a.callChain.size() != b.callChain.size())
    return false;
  for (size_t i = 0; i < a.callChain.size(); ++i)
    if (a.callChain[i].call != b.callChain[i].call)
      return false;
  return true;
}

/// The first backward() a window-start reset must precede. In a training
/// step function that holds its own window (reset, backward and the boundary
/// step() in one call, the window counted in calls), it is the first one of
/// the reset's own call: the function may be called more than once per
/// iteration of the caller's loop.
unsigned firstBackwardFor(const TrainingLoop &loop, const TrainingEvent &reset,
                          unsigned firstBackward) {
  bool stepsInSameCall = false;
  for (const TrainingEvent *step : loop.eventsOf(EventKind::Step))
    stepsInSameCall = stepsInSameCall ||
                      (step->condition == EventCondition::Boundary && sameInvocation(reset, *step));
  if (reset.callChain.empty() || !stepsInSameCall)
    return firstBackward;
  for (const TrainingEvent *backward : loop.eventsOf(EventKind::Backward))
    if (sameInvocation(*backward, reset))
      return backward->order;
  return firstBackward;
}

/// `stash[k] += p.grad(); opt.zero_grad();`: the gradient was just added into
/// a hand-written buffer, so the reset discards nothing the window needs.
bool movedIntoBuffer(const TrainingLoop &loop, const TrainingEvent &reset) {
  const TrainingEvent *lastBuffered = nullptr;
  for (const TrainingEvent &event : loop.events) {
    if (event.order >= reset.order)
      break;
    if (event.kind == EventKind::Backward)
      lastBuffered = nullptr;
    else if (event.kind == EventKind::GradBufferAdd &&
             (event.condition == reset.condition ||
              event.condition == EventCondition::EveryMicroBatch))
      lastBuffered = &event;
  }
  return lastBuffered != nullptr;
}

} // namespace

void MisplacedZeroGradCheck::check(const TrainingLoop &loop, CheckContext &context) {
  if (!loop.hasWindow())
    return;
  const TrainingEvent *step = loop.boundaryStep();
  std::vector<const TrainingEvent *> backwards = loop.eventsOf(EventKind::Backward);
  if (!step || backwards.empty())
    return;
  unsigned firstBackward = backwards.front()->order;
  std::string steps = describeSteps(loop);
  unsigned stepLine = context.line(step->loc);
  bool lossDividedBySteps = false;
  for (const TrainingEvent *backward : backwards)
    for (const ScaleFactor &factor : backward->scaling)
      lossDividedBySteps = lossDividedBySteps || factor.isAccumulationSteps;

  // A hand-written accumulator writes its buffer into .grad before step():
  // what .grad held before (and so any reset of it) does not reach step().
  for (const TrainingEvent *divide : loop.eventsOf(EventKind::GradDivide))
    if (divide->overwritesGradient && divide->condition == EventCondition::Boundary &&
        divide->order < step->order)
      return;

  for (const TrainingEvent *reset : loop.eventsOf(EventKind::GradReset)) {
    if (movedIntoBuffer(loop, *reset))
      continue;
    // A reset of a known optimizer follows that optimizer's steps; one of
    // unknown target follows the segment it runs in.
    if (reset->optimizer ? stepsEveryMicroBatch(loop, reset->optimizer)
                         : reset->steppedEveryMicroBatch)
      continue;
    // model->zero_grad() on a module the accumulating optimizer does not own
    // (a frozen teacher) leaves the window's gradients alone.
    if (reset->module && step->optimizer) {
      llvm::SmallPtrSet<const clang::ValueDecl *, 4> owned;
      context.facts().modulesOptimizedBy(step->optimizer, owned);
      if (!owned.empty() && !owned.count(reset->module))
        continue;
    }
    std::string message;
    switch (reset->condition) {
    case EventCondition::Boundary:
      // Right after step(), or on a path that leaves before it (a reset
      // that skips the step on overflow): correct.
      if (!loop.runsAfter(*reset, *step))
        continue;
      message = "gradient reset runs in the boundary branch before step() at line " +
                std::to_string(stepLine) + "; it discards the gradients of the whole window (" +
                steps + " micro-batches), so step() applies only what is computed after it";
      break;
    case EventCondition::WindowStart:
      if (reset->order < firstBackwardFor(loop, *reset, firstBackward))
        continue; // at the window start, before any gradient of the window exists
      message = "gradient reset at the window start runs after backward(); it discards the "
                "first micro-batch's gradient of every window of " +
                steps + " micro-batches";
      break;
    case EventCondition::EveryMicroBatch:
      message = "gradient reset runs on every micro-batch of an accumulation window of " + steps +
                "; it discards the gradients of the earlier micro-batches, so step() at "
                "line " +
                std::to_string(stepLine) + " applies only the last micro-batch's " +
                (lossDividedBySteps ? "gradient / N" : "gradient") +
                " instead of the window's accumulated gradient";
      break;
    case EventCondition::NotBoundary:
    case EventCondition::OncePerWindowElsewhere:
      message = "gradient reset runs between backward() and step() of an accumulation window "
                "of " +
                steps + "; it discards the gradients accumulated so far in the window";
      break;
    }
    Finding result = finding(loop.reportLocation(*reset), message);
    result.fix = resetFix(loop, *reset, *step, context);
    result.notes.push_back(windowNote(loop, context));
    result.notes.push_back({step->loc, "fix: reset the gradients in the boundary branch, right "
                                       "after this step() (or only at the window start, before "
                                       "the first backward())"});
    context.report(std::move(result));
  }
}

GRADLINT_REGISTER_CHECK(MisplacedZeroGradCheck, "accum-misplaced-zero-grad", 1)

} // namespace gradlint
