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
  if (!call || !step.callChain.empty() || passesClosure(call))
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
  std::optional<SourceEdit> edit = fixits::insertStatement(
      fixits::blockStatement(step, ast), /*after=*/true, object.str() + "zero_grad();", ast);
  if (!edit)
    return std::nullopt;
  return FindingFix{"reset the gradients right after step()", true, {*edit}};
}

} // namespace

void MissingGradResetCheck::check(const TrainingLoop &loop, CheckContext &context) {
  if (!loop.hasWindow())
    return;
  const TrainingEvent *step = loop.boundaryStep();
  if (!step || loop.eventsOf(EventKind::Backward).empty())
    return;
  // Any reset at all (even a misplaced one, which accum-misplaced-zero-grad
  // reports), a hand-written accumulator that overwrites .grad, or code the
  // model cannot see (which may reset): nothing to say.
  if (!loop.eventsOf(EventKind::GradReset).empty() || !loop.opaqueCalls.empty())
    return;
  for (const TrainingEvent *divide : loop.eventsOf(EventKind::GradDivide))
    if (divide->overwritesGradient)
      return;
  // step(closure): the closure usually resets the gradients itself.
  if (passesClosure(step->stmt))
    return;
  std::string steps = describeSteps(loop);
  Finding result = finding(
      step->loc,
      "gradients are never reset in this accumulation loop (" + steps +
          "); LibTorch's step() does not clear .grad, so every backward() adds onto all earlier "
          "windows and the k-th step() applies the sum of k windows' gradients");
  result.fix = resetFix(*step, context);
  result.notes.push_back(windowNote(loop, context));
  result.notes.push_back({step->loc, "fix: reset the gradients right after this step() "
                                     "(optimizer.zero_grad()), in the boundary branch"});
  context.report(std::move(result));
}

GRADLINT_REGISTER_CHECK(MissingGradResetCheck, "accum-missing-grad-reset", 7)

} // namespace gradlint
