#include "checks/Check.h"

#include "clang/AST/ExprCXX.h"

namespace gradlint {

namespace {

/// accum-missing-loss-division: backward() on a loss that is not divided by
/// the accumulation steps, with no division of the gradients either.
class MissingLossDivisionCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  ConfirmationPlan confirmation() const override {
    ConfirmationPlan plan;
    plan.programFix = ConfirmationPlan::ProgramFix::DivideLossBySteps;
    plan.aboutGradientScale = true;
    return plan;
  }
};

bool dividesBySteps(const TrainingEvent &event) {
  for (const ScaleFactor &factor : event.scaling)
    if (factor.isAccumulationSteps)
      return true;
  return false;
}

/// A divisor the model cannot tell from N (the inner loop's trip count is
/// computed from it, or a run-time value of the window: a member set per
/// window, a getter, the window's token count): silence rather than a guess.
bool mayDivideBySteps(const TrainingEvent &event) {
  for (const ScaleFactor &factor : event.scaling)
    if (factor.mayBeAccumulationSteps || factor.isRuntimeWindowValue)
      return true;
  return false;
}

/// The division of the optimizer's learning rate by N, if any.
const ScaleFactor *learningRateDividedBySteps(const TrainingEvent &step) {
  for (const ScaleFactor &factor : step.learningRateScaling)
    if (factor.isAccumulationSteps)
      return &factor;
  return nullptr;
}

/// (loss / N).backward(): the loss is divided where it enters backward(), so
/// that what is logged or returned stays the undivided loss.
std::optional<FindingFix> divisionFix(const TrainingLoop &loop, const TrainingEvent &backward,
                                      CheckContext &context) {
  const auto *call = llvm::dyn_cast_or_null<clang::CXXMemberCallExpr>(backward.stmt);
  if (!call || !backward.callChain.empty() || !call->getImplicitObjectArgument())
    return std::nullopt;
  clang::ASTContext &ast = context.astContext();
  const SymbolicValue &steps = loop.window->steps;
  std::optional<std::string> stepsText;
  if (steps.expr) {
    // N must be visible where backward() runs: not a local declared after it.
    if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(steps.expr->IgnoreParenImpCasts()))
      if (const auto *var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl()))
        if (var->hasLocalStorage() && !context.sourceManager().isBeforeInTranslationUnit(
                                          var->getLocation(), call->getBeginLoc()))
          return std::nullopt;
    stepsText = fixits::operandText(steps.expr, ast);
    // at::Scalar has no constructor for size_t or long long: `loss / v.size()`
    // is ambiguous with the real headers.
    clang::QualType type =
        steps.expr->IgnoreParenImpCasts()->getType().getCanonicalType().getUnqualifiedType();
    bool scalarAmbiguous = (type->isUnsignedIntegerType() && !type->isBooleanType() &&
                            !type->isSpecificBuiltinType(clang::BuiltinType::UChar)) ||
                           type->isSpecificBuiltinType(clang::BuiltinType::LongLong);
    if (stepsText && scalarAmbiguous)
      stepsText = "static_cast<double>(" + *stepsText + ")";
  } else if (steps.constant) {
    stepsText = std::to_string(*steps.constant);
  }
  const clang::Expr *loss = call->getImplicitObjectArgument();
  std::optional<std::string> lossText = fixits::operandText(loss, ast);
  if (!stepsText || !lossText)
    return std::nullopt;
  std::optional<SourceEdit> edit =
      fixits::replaceExpr(loss, "(" + *lossText + " / " + *stepsText + ")");
  if (!edit)
    return std::nullopt;
  return FindingFix{
      "divide the loss by " + *stepsText + " where it enters backward()", true, {*edit}};
}

} // namespace

void MissingLossDivisionCheck::check(const TrainingLoop &loop, CheckContext &context) {
  if (!loop.hasWindow())
    return;
  const TrainingEvent *step = loop.boundaryStep();
  if (!step)
    return;
  // The alternative of dividing the accumulated gradients at the boundary
  // (by N, or by a count of the window: `g.mul_(1.0 / pending)`).
  for (const TrainingEvent *divide : loop.eventsOf(EventKind::GradDivide))
    if (divide->condition == EventCondition::Boundary && divide->order < step->order &&
        (dividesBySteps(*divide) || mayDivideBySteps(*divide)))
      return;
  // A hand-written buffer: the division may come with each add (`acc += g / N`)
  // or with the write-back (`grad = acc / steps_`, a divisor read under another name).
  for (const TrainingEvent *add : loop.eventsOf(EventKind::GradBufferAdd))
    if (dividesBySteps(*add) || mayDivideBySteps(*add))
      return;
  for (const TrainingEvent *divide : loop.eventsOf(EventKind::GradDivide))
    if (divide->overwritesGradient && divide->buffer && !divide->scaling.empty() &&
        divide->condition == EventCondition::Boundary)
      return;

  // SGD's update is lr times the gradient (with momentum, lr times a running
  // sum of gradients), linear in both: lr / N gives the same update as loss / N.
  const ScaleFactor *dividedLearningRate = learningRateDividedBySteps(*step);
  if (dividedLearningRate && step->algorithm == OptimizerAlgorithm::Sgd)
    return;

  std::string steps = describeSteps(loop);
  std::string stepsText = loop.window->steps.text.empty() ? "N" : loop.window->steps.text;
  for (const TrainingEvent *backward : loop.eventsOf(EventKind::Backward)) {
    if (backward->condition != EventCondition::EveryMicroBatch ||
        backward->steppedEveryMicroBatch || backward->sharedBackward || dividesBySteps(*backward) ||
        mayDivideBySteps(*backward))
      continue;
    Finding result = finding(
        loop.reportLocation(*backward),
        "loss passed to backward() is not divided by the accumulation steps (" + steps +
            "); backward() sums the gradients of the N micro-batches, so step() at line " +
            std::to_string(context.line(step->loc)) + " applies N times the large-batch gradient");
    result.fix = divisionFix(loop, *backward, context);
    result.notes.push_back(windowNote(loop, context));
    result.notes.push_back({backward->loc, "fix: divide the loss by " + stepsText +
                                               " before backward(), e.g. (loss / " + stepsText +
                                               ").backward(), or divide the gradients by " +
                                               stepsText +
                                               " in the boundary branch before step()"});
    // Adam, AdamW, RMSprop and Adagrad divide the update by the gradient's
    // scale: a smaller learning rate only shrinks the step, it does not undo the sum.
    if (dividedLearningRate && step->algorithm == OptimizerAlgorithm::Adaptive)
      result.notes.push_back(
          {dividedLearningRate->loc,
           "the learning rate is divided by " + stepsText +
               " here instead; with an adaptive optimizer (Adam, AdamW, RMSprop, Adagrad) that "
               "does not compensate for the missing division, it makes every update " +
               stepsText + " times smaller"});
    context.report(std::move(result));
  }
}

GRADLINT_REGISTER_CHECK(MissingLossDivisionCheck, "accum-missing-loss-division", 2)

} // namespace gradlint
