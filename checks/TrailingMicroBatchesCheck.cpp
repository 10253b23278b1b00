#include "checks/Check.h"
#include "checks/FixIts.h"
#include "model/ApiCalls.h"

#include "clang/AST/Expr.h"

namespace gradlint {

namespace {

/// accum-trailing-micro-batches: when a loop's batches are not a multiple of
/// N, the micro-batches after its last boundary never reach a step(): they are
/// discarded by the next reset or carried into the next epoch's first window.
class TrailingMicroBatchesCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
};

/// What becomes of the partial window's gradients, or empty when nothing is lost.
std::string fateOfPartialWindow(const TrainingLoop &loop, const CheckContext &context) {
  const LoopEnd &end = loop.end;
  // A reset anywhere but after the boundary's step() runs before the next
  // window's step(): it discards what the last one left.
  bool resetBeforeNextStep = false;
  for (const TrainingEvent *reset : loop.eventsOf(EventKind::GradReset))
    resetBeforeNextStep = resetBeforeNextStep || reset->condition != EventCondition::Boundary;
  if (end.counter == CounterScope::RunsAcross) {
    // Windows run on across epochs: only a reset between epochs loses them.
    if (!end.epochReset)
      return "";
    return "the gradient reset between epochs (line " +
           std::to_string(context.line(end.epochReset->getBeginLoc())) +
           ") discards them, and the next epoch's first window steps on fewer than N";
  }
  if (end.epochReset)
    return "the gradient reset before the next epoch (line " +
           std::to_string(context.line(end.epochReset->getBeginLoc())) + ") discards them";
  if (resetBeforeNextStep)
    return "the next gradient reset in the loop discards them";
  if (end.epochLoop)
    return "they stay in .grad and are added to the next epoch's first window, which then "
           "steps on up to 2N - 1 micro-batches";
  return "they stay in .grad when the loop ends: no step() applies them here, and a later "
         "window that does adds them to its own";
}

/// `(i + 1) % N == 0` -> `(i + 1) % N == 0 || i + 1 == B` for a counted loop
/// whose index is the window counter.
std::optional<FindingFix> lastBatchFix(const TrainingLoop &loop, CheckContext &context) {
  const BoundaryGuard &guard = loop.window->guard;
  if (!loop.end.batchCount || guard.form != GuardForm::Modulo || guard.viaEarlyContinue ||
      guard.viaFlag || guard.viaHelper || !guard.condition || !guard.counter)
    return std::nullopt;
  // Only a bare comparison: `flag && (i + 1) % N == 0` would step at the last
  // batch whatever the flag says once extended.
  const auto *condition =
      llvm::dyn_cast<clang::BinaryOperator>(guard.condition->IgnoreParenImpCasts());
  if (!condition || !condition->isComparisonOp() || condition->getBeginLoc().isMacroID() ||
      condition->getEndLoc().isMacroID())
    return std::nullopt;
  std::string written = context.text(guard.condition);
  std::optional<std::string> bound = fixits::operandText(loop.end.batchCount, context.astContext());
  if (written.empty() || !bound)
    return std::nullopt;
  std::string index = guard.counter->getNameAsString();
  std::optional<SourceEdit> edit =
      fixits::replaceExpr(guard.condition, written + " || " + index + " + 1 == " + *bound);
  if (!edit)
    return std::nullopt;
  FindingFix fix{"also step at the loop's last batch", false, {*edit}};
  // The short last window divides its loss by its own size r, not N: one
  // division by N written in the loop body, else no fix-it.
  const ScaleFactor *byN = nullptr;
  for (const TrainingEvent *backward : loop.eventsOf(EventKind::Backward))
    for (const ScaleFactor &factor : backward->scaling) {
      if (!factor.isAccumulationSteps && !factor.mayBeAccumulationSteps)
        continue;
      // A divisor that holds more than N (`N * W`) is other checks' business too.
      if (byN || !backward->callChain.empty() || !factor.divisor || factor.isWorldSize)
        return std::nullopt;
      byN = &factor;
    }
  if (byN) {
    const clang::Expr *divisor = stripCasts(byN->divisor)->IgnoreParens();
    std::optional<std::string> steps = fixits::operandText(divisor, context.astContext());
    if (!steps || divisor->getBeginLoc().isMacroID() ||
        !(llvm::isa<clang::DeclRefExpr>(divisor) || llvm::isa<clang::IntegerLiteral>(divisor) ||
          llvm::isa<clang::MemberExpr>(divisor)))
      return std::nullopt;
    std::string size = "static_cast<double>(" + index + " >= " + *bound + " - " + *bound + " % " +
                       *steps + " ? " + *bound + " % " + *steps + " : " + *steps + ")";
    std::optional<SourceEdit> scale = fixits::replaceExpr(divisor, size);
    if (!scale)
      return std::nullopt;
    fix.edits.push_back(*scale);
    fix.description += ", dividing its short last window by its own size";
  }
  // Unsafe: it changes which micro-batches train and how the last one weighs.
  return fix;
}

bool dividesLossBySteps(const TrainingLoop &loop) {
  for (const TrainingEvent *backward : loop.eventsOf(EventKind::Backward))
    for (const ScaleFactor &factor : backward->scaling)
      if (factor.isAccumulationSteps)
        return true;
  return false;
}

} // namespace

void TrailingMicroBatchesCheck::check(const TrainingLoop &loop, CheckContext &context) {
  if (!loop.hasWindow() || !loop.boundaryStep() || loop.kind != LoopKind::Loop)
    return;
  const BoundaryGuard &guard = loop.window->guard;
  const LoopEnd &end = loop.end;
  // The guard already steps at the last batch, a step() after the loop
  // flushes the partial window, there is none, or nothing shows that the loop
  // runs more than once (its one tail at the end of training is not reported).
  if (guard.form == GuardForm::NestedLoop || guard.lastBatchExtension || end.flush ||
      end.batchCountMultipleOfSteps || end.counter == CounterScope::Unknown || !end.runsPerEpoch)
    return;
  std::string fate = fateOfPartialWindow(loop, context);
  if (fate.empty())
    return;
  std::string steps = describeSteps(loop);
  std::string where = end.epochLoop ? "of every epoch" : "of the loop";
  Finding result = finding(
      guard.loc, "the last partial window " + where +
                     " never reaches step(): when the loop's batches are " + "not a multiple of " +
                     steps + ", the r = batches mod N micro-batches after its last " +
                     "boundary are backpropagated but not stepped, and " + fate);
  result.fix = lastBatchFix(loop, context);
  result.notes.push_back(windowNote(loop, context));
  std::string fix =
      end.counter == CounterScope::RunsAcross
          ? "fix: step once after the loop when micro-batches are left over (before the "
            "epoch's reset), or count the window per epoch and step at the last batch"
      : end.batchCount
          ? "fix: also step at the last batch (`" + guard.counter->getNameAsString() +
                " + 1 == " + context.text(end.batchCount) +
                "` in the guard), or step once after the loop when micro-batches are left over"
          : "fix: step once after the loop when micro-batches are left over, or also step at "
            "the epoch's last batch";
  if (dividesLossBySteps(loop))
    fix += "; the loss is divided by N, so that last window's update is r/N of a full one: "
           "divide its loss by r instead";
  result.notes.push_back({guard.loc, fix});
  context.report(std::move(result));
}

GRADLINT_REGISTER_CHECK(TrailingMicroBatchesCheck, "accum-trailing-micro-batches", 11)

} // namespace gradlint
