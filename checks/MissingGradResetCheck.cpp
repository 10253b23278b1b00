#include "checks/Check.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

namespace gradlint {

namespace {

/// accum-missing-grad-reset: a loop with an accumulation window whose
/// gradients are never reset: every window adds onto all the earlier ones.
class MissingGradResetCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  ConfirmationPlan confirmation() const override { return {}; }

private:
  void reportStep(const TrainingLoop &loop, const TrainingEvent &step, CheckContext &context);
  static void noteOtherResets(const TrainingLoop &loop, const TrainingEvent &step, Finding &result);
};

/// step(closure) rather than step() (whose closure defaults to nullptr).
bool passesClosure(const clang::Stmt *stmt) {
  const auto *call = llvm::dyn_cast_or_null<clang::CallExpr>(stmt);
  return call && call->getNumArgs() > 0 && !llvm::isa<clang::CXXDefaultArgExpr>(call->getArg(0));
}

/// `opt.step()` -> `opt.zero_grad();` inserted right after it: the object
/// expression is kept as written (`opt.`, `opt->`, `(*opt).`).
std::optional<FindingFix> resetFix(const TrainingEvent &step, CheckContext &context) {
  const auto *call = llvm::dyn_cast_or_null<clang::CXXMemberCallExpr>(step.stmt);
  if (!call || passesClosure(call))
    return std::nullopt;
  const auto *member = llvm::dyn_cast<clang::MemberExpr>(call->getCallee()->IgnoreParens());
  if (!member || member->getBeginLoc().isMacroID() || member->getMemberLoc().isMacroID())
    return std::nullopt;
  clang::ASTContext &ast = context.astContext();
  // The text up to the member name: `optimizer.`, `opt->`, `trainer.opt_->`.
  llvm::StringRef object = clang::Lexer::getSourceText(
      clang::CharSourceRange::getCharRange(member->getBeginLoc(), member->getMemberLoc()),
      ast.getSourceManager(), ast.getLangOpts());
  if (object.empty())
    return std::nullopt;
  // In a helper the anchor is step() itself, in the helper's body.
  const clang::Stmt *anchor = step.callChain.empty() ? fixits::blockStatement(step, ast)
                                                     : fixits::statementInBlock(call, ast);
  std::optional<SourceEdit> edit =
      fixits::insertStatement(anchor, /*after=*/true, object.str() + "zero_grad();", ast);
  if (!edit)
    return std::nullopt;
  // In a helper, every caller of that helper gets the reset: unsafe.
  if (!step.callChain.empty())
    return FindingFix{"reset the gradients right after step() in '" +
                          step.callChain.back().callee->getNameAsString() +
                          "' (every caller of it gets the reset)",
                      false,
                      {*edit}};
  return FindingFix{"reset the gradients right after step()", true, {*edit}};
}

/// Whether `reset` clears the gradients `step` applies: the same optimizer,
/// a module that optimizer trains, or a reset of unknown target; and it runs
/// on the path where step() runs (not only on an overflow path that returns
/// before it).
bool resets(const TrainingLoop &loop, const TrainingEvent &reset, const TrainingEvent &step,
            CheckContext &context) {
  bool samePath = loop.runsAfter(reset, step) || loop.runsAfter(step, reset);
  if (!samePath)
    return false;
  if (reset.optimizer && step.optimizer)
    return context.facts().sameObject(reset.optimizer, step.optimizer);
  if (reset.module && step.optimizer) {
    llvm::SmallPtrSet<const clang::ValueDecl *, 4> owned;
    context.facts().modulesOptimizedBy(step.optimizer, owned);
    return owned.empty() || owned.count(reset.module);
  }
  return true;
}

} // namespace

void MissingGradResetCheck::check(const TrainingLoop &loop, CheckContext &context) {
  if (!loop.hasWindow())
    return;
  if (loop.eventsOf(EventKind::Backward).empty() || !loop.boundaryStep())
    return;
  // A hand-written accumulator that overwrites .grad, or code the model
  // cannot see (which may reset): nothing to say.
  if (!loop.opaqueCalls.empty())
    return;
  for (const TrainingEvent *divide : loop.eventsOf(EventKind::GradDivide))
    if (divide->overwritesGradient)
      return;
  // Each optimizer stepping at the boundary needs a reset of its own
  // gradients; any such reset (even a misplaced one, which
  // accum-misplaced-zero-grad reports) is enough here.
  for (const TrainingEvent *step : loop.eventsOf(EventKind::Step)) {
    if (step->condition != EventCondition::Boundary || step->steppedEveryMicroBatch ||
        passesClosure(step->stmt)) // step(closure): the closure usually resets
      continue;
    bool covered = false;
    for (const TrainingEvent *reset : loop.eventsOf(EventKind::GradReset))
      covered = covered || resets(loop, *reset, *step, context);
    if (!covered)
      reportStep(loop, *step, context);
  }
}

void MissingGradResetCheck::reportStep(const TrainingLoop &loop, const TrainingEvent &stepEvent,
                                       CheckContext &context) {
  const TrainingEvent *step = &stepEvent;
  std::string steps = describeSteps(loop);
  Finding result = finding(
      step->loc,
      "gradients are never reset in this accumulation loop (" + steps +
          "); LibTorch's step() does not clear .grad, so every backward() adds onto all earlier "
          "windows and the k-th step() applies the sum of k windows' gradients");
  result.fix = resetFix(*step, context);
  result.notes.push_back(windowNote(loop, context));
  noteOtherResets(loop, *step, result);
  result.notes.push_back({step->loc, "fix: reset the gradients right after this step() "
                                     "(optimizer.zero_grad()), in the boundary branch"});
  context.report(std::move(result));
}

/// The loop's other resets, and why none of them clears these gradients.
void MissingGradResetCheck::noteOtherResets(const TrainingLoop &loop, const TrainingEvent &step,
                                            Finding &result) {
  for (const TrainingEvent *reset : loop.eventsOf(EventKind::GradReset)) {
    if (loop.runsAfter(*reset, step) || loop.runsAfter(step, *reset))
      result.notes.push_back({reset->loc, "this reset clears another model's gradients, not "
                                          "the ones this step() applies"});
    else
      result.notes.push_back({reset->loc, "this reset runs only on a path that leaves before "
                                          "step() (its branch ends with return, continue or "
                                          "break), so the gradients step() applies keep "
                                          "growing"});
  }
}

GRADLINT_REGISTER_CHECK(MissingGradResetCheck, "accum-missing-grad-reset", 7)

} // namespace gradlint
