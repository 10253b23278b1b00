#include "checks/Check.h"
#include "checks/FixIts.h"
#include "model/ApiCalls.h"
#include "model/AstHelpers.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"

namespace gradlint {

namespace {

/// accum-trailing-micro-batches: when a loop's batches are not a multiple of
/// N, the micro-batches after its last boundary never reach a step(): they are
/// discarded by the next reset or carried into the next epoch's first window.
class TrailingMicroBatchesCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  ConfirmationPlan confirmation() const override {
    ConfirmationPlan plan;
    plan.run = ConfirmationPlan::Run::Epochs;
    return plan;
  }
};

/// What becomes of the partial window's gradients, or empty when nothing is lost.
/// `single`: the partial window is one micro-batch (the sentence says "it").
std::string fateOfPartialWindow(const TrainingLoop &loop, const CheckContext &context,
                                bool single) {
  const std::string them = single ? "it" : "them";
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
           std::to_string(context.line(end.epochReset->getBeginLoc())) + ") discards " + them +
           ", and the next epoch's first window steps on fewer than N";
  }
  if (end.epochReset)
    return "the gradient reset before the next epoch (line " +
           std::to_string(context.line(end.epochReset->getBeginLoc())) + ") discards " + them;
  if (resetBeforeNextStep)
    return "the next gradient reset in the loop discards " + them;
  if (end.epochLoop)
    return std::string(single ? "it stays in .grad and is added"
                              : "they stay in .grad and are added") +
           " to the next epoch's first window, which then steps on up to 2N - 1 micro-batches";
  return std::string(single ? "it stays" : "they stay") +
         " in .grad when the loop ends: no step() applies " + them +
         " here, and a later window that does adds " + them + " to its own";
}

/// A comparison written without macros: the only condition that extending
/// with `||` leaves alone at every batch but the last (`flag && (i + 1) % N
/// == 0` would step at the last batch whatever the flag says).
const clang::BinaryOperator *bareComparison(const clang::Expr *expr) {
  const auto *comparison =
      llvm::dyn_cast_or_null<clang::BinaryOperator>(expr ? expr->IgnoreParenImpCasts() : nullptr);
  if (!comparison || !comparison->isComparisonOp() || comparison->getBeginLoc().isMacroID() ||
      comparison->getEndLoc().isMacroID())
    return nullptr;
  return comparison;
}

/// The expression that decides the boundary and may be extended with the
/// last batch: the guard itself, a flag's initializer (`bool sync = (i + 1) %
/// N == 0;`), or a helper predicate call whose body is one such comparison.
const clang::Expr *extensibleCondition(const BoundaryGuard &guard) {
  if (guard.viaFlag) {
    const auto *ref =
        llvm::dyn_cast_or_null<clang::DeclRefExpr>(guard.condition->IgnoreParenImpCasts());
    const auto *flag = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    // Assigned elsewhere, the flag may say more than the comparison.
    if (!flag || !flag->getType().isConstQualified())
      return nullptr;
    return bareComparison(flag->getInit()) ? flag->getInit() : nullptr;
  }
  if (guard.viaHelper) {
    const auto *call = llvm::dyn_cast<clang::CallExpr>(guard.condition->IgnoreParenImpCasts());
    const clang::FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
    const clang::FunctionDecl *definition = callee ? callee->getDefinition() : nullptr;
    const auto *body =
        llvm::dyn_cast_or_null<clang::CompoundStmt>(definition ? definition->getBody() : nullptr);
    if (!body || body->size() != 1)
      return nullptr;
    const auto *returned = llvm::dyn_cast<clang::ReturnStmt>(body->body_front());
    return returned && bareComparison(returned->getRetValue()) ? guard.condition : nullptr;
  }
  return bareComparison(guard.condition) ? guard.condition : nullptr;
}

/// `(i + 1) % N == 0` -> `(i + 1) % N == 0 || i + 1 == B` for a counted loop
/// whose index is the window counter (`&& i + 1 != B` for an early `continue`).
std::optional<FindingFix> lastBatchFix(const TrainingLoop &loop, CheckContext &context) {
  const BoundaryGuard &guard = loop.window->guard;
  if (!loop.end.batchCount || guard.form != GuardForm::Modulo || !guard.condition || !guard.counter)
    return std::nullopt;
  const clang::Expr *extended = extensibleCondition(guard);
  if (!extended)
    return std::nullopt;
  std::string written = context.text(extended);
  std::optional<std::string> bound = fixits::operandText(loop.end.batchCount, context.astContext());
  if (written.empty() || !bound)
    return std::nullopt;
  std::string index = guard.counter->getNameAsString();
  std::string last = guard.viaEarlyContinue ? " && " + index + " + 1 != " + *bound
                                            : " || " + index + " + 1 == " + *bound;
  std::optional<SourceEdit> edit = fixits::replaceExpr(extended, written + last);
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

bool contains(const clang::Stmt *outer, clang::SourceLocation loc, const clang::SourceManager &sm) {
  clang::SourceRange range = outer->getSourceRange();
  return loc.isValid() && !sm.isBeforeInTranslationUnit(loc, range.getBegin()) &&
         !sm.isBeforeInTranslationUnit(range.getEnd(), loc);
}

/// Whether `block`, copied after `loop`, still compiles and means the same:
/// it names nothing declared in the loop outside it and has no `break`,
/// `continue` or `return`.
bool copyableAfter(const clang::Stmt *node, const clang::Stmt *block, const clang::Stmt *loop,
                   const clang::SourceManager &sm) {
  if (llvm::isa<clang::BreakStmt, clang::ContinueStmt, clang::ReturnStmt>(node))
    return false;
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(node)) {
    clang::SourceLocation declared = ref->getDecl()->getLocation();
    if (contains(loop, declared, sm) && !contains(block, declared, sm))
      return false;
  }
  for (const clang::Stmt *child : node->children())
    if (child && !copyableAfter(child, block, loop, sm))
      return false;
  return true;
}

/// Whether `node` holds `counter = 0`.
bool resetsCounter(const clang::Stmt *node, const clang::ValueDecl *counter) {
  if (const auto *assign = llvm::dyn_cast<clang::BinaryOperator>(node))
    if (assign->getOpcode() == clang::BO_Assign) {
      const auto *literal =
          llvm::dyn_cast<clang::IntegerLiteral>(assign->getRHS()->IgnoreParenImpCasts());
      const clang::Expr *lhs = assign->getLHS()->IgnoreParenImpCasts();
      const clang::ValueDecl *written = nullptr;
      if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(lhs))
        written = ref->getDecl();
      else if (const auto *member = llvm::dyn_cast<clang::MemberExpr>(lhs))
        written = member->getMemberDecl();
      if (literal && literal->getValue() == 0 && written == counter)
        return true;
    }
  for (const clang::Stmt *child : node->children())
    if (child && resetsCounter(child, counter))
      return true;
  return false;
}

/// A flush after the data loop: `if (micro != 0) { <the boundary branch> }`
/// (a counter set back to 0 at the boundary), or `if (step % N != 0) {...}`
/// (a counter that counts micro-batches), when the counter outlives the loop.
std::optional<FindingFix> flushFix(const TrainingLoop &loop, CheckContext &context) {
  const BoundaryGuard &guard = loop.window->guard;
  clang::ASTContext &ast = context.astContext();
  const clang::SourceManager &sm = context.sourceManager();
  if (!guard.condition || !guard.counter || guard.viaEarlyContinue || guard.viaHelper ||
      guard.condition->getBeginLoc().isMacroID() ||
      contains(loop.loop, guard.counter->getLocation(), sm))
    return std::nullopt;
  // The `if` whose condition is the guard, and its braced boundary branch.
  const clang::Stmt *node = guard.condition;
  const clang::Stmt *parent = parentStmt(node, ast);
  while (parent && llvm::isa<clang::ParenExpr, clang::ImplicitCastExpr>(parent)) {
    node = parent;
    parent = parentStmt(node, ast);
  }
  const auto *branch = llvm::dyn_cast_or_null<clang::IfStmt>(parent);
  if (!branch || branch->getCond() != node || branch->getElse())
    return std::nullopt;
  const auto *boundary = llvm::dyn_cast<clang::CompoundStmt>(branch->getThen());
  if (!boundary || !copyableAfter(boundary, boundary, loop.loop, sm))
    return std::nullopt;
  std::string counter = guard.counter->getNameAsString();
  std::string leftOver;
  if (guard.form == GuardForm::CounterReachesN) {
    if (!resetsCounter(boundary, guard.counter))
      return std::nullopt;
    leftOver = counter + " != 0";
  } else if (guard.form == GuardForm::Modulo && (guard.residue == 0 || guard.residue == -1)) {
    // After the loop the counter holds the micro-batches counted; N must be
    // named by something the code after the loop sees.
    const clang::Expr *steps = loop.window->steps.expr;
    std::optional<std::string> text =
        steps ? fixits::operandText(stripCasts(steps), ast) : std::nullopt;
    if (!text || !loop.function || !contains(loop.function->getBody(), steps->getBeginLoc(), sm) ||
        !copyableAfter(steps, boundary, loop.loop, sm))
      return std::nullopt;
    leftOver = counter + " % " + *text + " != 0";
  } else {
    return std::nullopt;
  }
  std::optional<SourceEdit> edit =
      fixits::insertBlockCopyAfter(loop.loop, "if (" + leftOver + ") ", boundary, ast);
  if (!edit)
    return std::nullopt;
  // Unsafe: the partial window now steps (at r/N of a full window's weight
  // when the loss is divided by N).
  return FindingFix{"step the partial window once after the loop", false, {*edit}};
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
  if (fateOfPartialWindow(loop, context, /*single=*/false).empty())
    return;
  std::string steps = describeSteps(loop);
  std::string where = end.epochLoop ? "of every epoch" : "of the loop";
  // Definite only when B and N are both known: otherwise the finding holds
  // for the batch counts that are not a multiple of N (--inconclusive).
  // N may be known only as the default the command line leaves in place
  // (`get_int("--accum", 4)`): the finding then holds for the code as shipped.
  const std::optional<int64_t> &batches = end.batchCountValue;
  const SymbolicValue &stepsSymbol = loop.window->steps;
  std::optional<int64_t> stepsValue =
      stepsSymbol.constant ? stepsSymbol.constant : stepsSymbol.inputDefault;
  bool definite = batches && stepsValue && *stepsValue > 1 && *batches % *stepsValue != 0;
  if (definite && !stepsSymbol.constant)
    steps += " = " + std::to_string(*stepsValue) + " (its default; the command line can change it)";
  std::string count = batches ? std::to_string(*batches) : "";
  std::string bound = context.text(end.batchCount);
  if (definite && !bound.empty() && bound != count)
    count = bound + " = " + count;
  if (definite)
    count += end.batchCountOrigin.empty() ? " batches" : " batches (" + end.batchCountOrigin + ")";
  bool single = definite && *batches % *stepsValue == 1;
  std::string leftOver =
      definite ? "the loop runs " + count + ", not a multiple of " + steps + ": the " +
                     std::to_string(*batches % *stepsValue) +
                     (single ? " micro-batch after its last boundary is"
                             : " micro-batches after its last boundary are")
               : "when the loop's batches are not a multiple of " + steps +
                     ", the r = batches mod N micro-batches after its last boundary are";
  Finding result =
      finding(guard.loc, "the last partial window " + where + " never reaches step(): " + leftOver +
                             " backpropagated but not stepped, and " +
                             fateOfPartialWindow(loop, context, single));
  result.conditional = !definite;
  result.fix = lastBatchFix(loop, context);
  if (!result.fix)
    result.fix = flushFix(loop, context);
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
