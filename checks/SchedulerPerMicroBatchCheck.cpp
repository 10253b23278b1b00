#include "checks/Check.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

namespace gradlint {

namespace {

/// accum-scheduler-per-micro-batch: a learning-rate scheduler stepped on every
/// micro-batch of an accumulation window, so the schedule runs N times too fast.
class SchedulerPerMicroBatchCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  ConfirmationPlan confirmation() const override { return {}; }
};

/// The scheduler's step() moves into the boundary branch, right after the
/// optimizer's step() (where LibTorch and PyTorch expect it).
std::optional<FindingFix> schedulerFix(const TrainingLoop &loop, const TrainingEvent &scheduler,
                                       const TrainingEvent &step, CheckContext &context) {
  clang::ASTContext &ast = context.astContext();
  const clang::Stmt *statement = fixits::eventStatement(loop, scheduler, ast);
  // A guard unrelated to the window moves with it (unsafe: it is then
  // evaluated at the boundary only).
  if (!statement)
    statement = fixits::unrelatedGuardStatement(loop, scheduler, ast);
  if (!statement)
    return std::nullopt;
  std::optional<FindingFix> fix = fixits::moveStatement(
      statement, fixits::blockStatement(step, ast), /*after=*/true,
      "move the scheduler's step() into the boundary branch, right after the optimizer's step()",
      ast);
  if (fix)
    fix->safe = fixits::isTheCallAlone(statement, scheduler, ast);
  return fix;
}

/// The object a call is made on, as a declaration: `sched` in `sched.step()`,
/// `sched->step()`, `(*sched).step()`.
const clang::ValueDecl *objectDecl(const clang::Expr *expr) {
  if (!expr)
    return nullptr;
  expr = expr->IgnoreParenImpCasts();
  if (const auto *op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(expr))
    if (op->getNumArgs() >= 1 &&
        (op->getOperator() == clang::OO_Star || op->getOperator() == clang::OO_Arrow))
      return objectDecl(op->getArg(0));
  if (const auto *member = llvm::dyn_cast<clang::CXXMemberCallExpr>(expr))
    return objectDecl(member->getImplicitObjectArgument()); // unique_ptr::get()
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(expr))
    return ref->getDecl();
  if (const auto *member = llvm::dyn_cast<clang::MemberExpr>(expr))
    return member->getMemberDecl();
  return nullptr;
}

/// `if (scheduler) scheduler->step();`: a test that the scheduler exists is
/// not a condition on the micro-batch.
bool onlyGuardedByItsOwnNullCheck(const TrainingEvent &scheduler, clang::ASTContext &context) {
  const auto *call = llvm::dyn_cast_or_null<clang::CXXMemberCallExpr>(scheduler.stmt);
  if (!call || !scheduler.callChain.empty())
    return false;
  const clang::ValueDecl *object = objectDecl(call->getImplicitObjectArgument());
  if (!object)
    return false;
  const clang::Stmt *node = call;
  int ifs = 0;
  for (int depth = 0; depth < 8; ++depth) {
    auto parents = context.getParents(*node);
    const clang::Stmt *parent = parents.empty() ? nullptr : parents[0].get<clang::Stmt>();
    if (!parent ||
        llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt, clang::CXXForRangeStmt>(parent))
      break;
    if (const auto *branch = llvm::dyn_cast<clang::IfStmt>(parent)) {
      if (branch->getThen() != node)
        return false;
      const clang::Expr *condition = branch->getCond()->IgnoreParenImpCasts();
      if (const auto *compare = llvm::dyn_cast<clang::BinaryOperator>(condition))
        if (compare->getOpcode() == clang::BO_NE)
          condition = compare->getLHS()->IgnoreParenImpCasts();
      if (const auto *conversion = llvm::dyn_cast<clang::CXXMemberCallExpr>(condition))
        condition = conversion->getImplicitObjectArgument(); // unique_ptr's operator bool
      if (objectDecl(condition) != object)
        return false;
      ++ifs;
    }
    node = parent;
  }
  return ifs == 1;
}

bool stepsAnotherOptimizerEveryMicroBatch(const TrainingLoop &loop) {
  for (const TrainingEvent *step : loop.eventsOf(EventKind::Step))
    if (step->condition == EventCondition::EveryMicroBatch)
      return true;
  return false;
}

} // namespace

void SchedulerPerMicroBatchCheck::check(const TrainingLoop &loop, CheckContext &context) {
  if (!loop.hasWindow())
    return;
  const TrainingEvent *step = loop.boundaryStep();
  if (!step)
    return;
  std::string steps = describeSteps(loop);
  std::string stepsText = loop.window->steps.text.empty() ? "N" : loop.window->steps.text;
  for (const TrainingEvent *scheduler : loop.eventsOf(EventKind::SchedulerStep)) {
    // Stepped once per window (boundary, window start, after the inner loop)
    // it follows the optimizer steps; a second optimizer's scheduler that
    // steps with it on every micro-batch is not part of this window. Under an
    // unrelated condition (`if (i % 100 == 0)`) the period is the code's choice.
    if (scheduler->condition != EventCondition::EveryMicroBatch ||
        scheduler->steppedEveryMicroBatch ||
        (scheduler->guardedByUnrelatedCondition &&
         !onlyGuardedByItsOwnNullCheck(*scheduler, context.astContext())))
      continue;
    // A scheduler of another optimizer (a GAN's critic that steps on every
    // batch); of an unknown one, when such an optimizer exists.
    if (scheduler->optimizer ? scheduler->optimizer != step->optimizer
                             : stepsAnotherOptimizerEveryMicroBatch(loop))
      continue;
    Finding result = finding(
        loop.reportLocation(*scheduler),
        "learning-rate scheduler steps on every micro-batch of an accumulation window of " + steps +
            "; the optimizer steps once per window (line " +
            std::to_string(context.line(step->loc)) +
            "), so the schedule advances N times per optimizer step: after k optimizer steps "
            "the learning rate is the one planned for step k*N");
    result.fix = schedulerFix(loop, *scheduler, *step, context);
    result.notes.push_back(windowNote(loop, context));
    result.notes.push_back(
        {step->loc, "fix: step the scheduler in the boundary branch, right after this step() (or "
                    "keep it here and give it a schedule " +
                        stepsText + " times longer)"});
    context.report(std::move(result));
  }
}

GRADLINT_REGISTER_CHECK(SchedulerPerMicroBatchCheck, "accum-scheduler-per-micro-batch", 6)

} // namespace gradlint
