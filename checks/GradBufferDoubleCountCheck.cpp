#include "checks/Check.h"
#include "checks/FixIts.h"

#include "model/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

#include <algorithm>

namespace gradlint {

namespace {

/// accum-grad-buffer-double-count: a hand-written gradient buffer that
/// receives .grad on every micro-batch while .grad itself keeps accumulating:
/// the buffer gets the running sum, so micro-batch k of N is counted N - k + 1 times.
class GradBufferDoubleCountCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  ConfirmationPlan confirmation() const override {
    ConfirmationPlan plan;
    plan.aboutGradientScale = true;
    plan.weighsMicroBatches = true;
    return plan;
  }
};

bool countsForTheWindow(const TrainingEvent &event) { return !event.steppedEveryMicroBatch; }

/// Whether .grad is reset between two adds into the buffer on every micro-batch.
/// A reset of another optimizer (a GAN's discriminator) leaves these gradients alone.
bool resetEveryMicroBatch(const TrainingLoop &loop, const TrainingEvent &add,
                          const TrainingEvent &step) {
  bool notBoundaryAfterAdd = false, boundaryAfterAdd = false;
  for (const TrainingEvent *reset : loop.eventsOf(EventKind::GradReset)) {
    if (!countsForTheWindow(*reset) ||
        (reset->optimizer && step.optimizer && reset->optimizer != step.optimizer))
      continue;
    if (reset->condition == EventCondition::EveryMicroBatch)
      return true;
    if (reset->order > add.order) {
      notBoundaryAfterAdd |= reset->condition == EventCondition::NotBoundary;
      boundaryAfterAdd |= reset->condition == EventCondition::Boundary;
    }
  }
  return notBoundaryAfterAdd && boundaryAfterAdd;
}

/// `params[k].grad()`, `p.grad()`, `this->net_->parameters()[i].grad()`... :
/// an expression that can be evaluated a second time with the same result.
bool repeatable(const clang::Expr *expr) {
  expr = expr->IgnoreParenImpCasts();
  if (llvm::isa<clang::DeclRefExpr, clang::CXXThisExpr, clang::IntegerLiteral>(expr))
    return true;
  if (const auto *member = llvm::dyn_cast<clang::MemberExpr>(expr))
    return repeatable(member->getBase());
  if (const auto *subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(expr))
    return repeatable(subscript->getBase()) && repeatable(subscript->getIdx());
  if (const auto *op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(expr)) {
    auto kind = op->getOperator();
    if (kind != clang::OO_Subscript && kind != clang::OO_Arrow && kind != clang::OO_Star)
      return false;
    for (const clang::Expr *arg : op->arguments())
      if (!repeatable(arg))
        return false;
    return true;
  }
  if (const auto *call = llvm::dyn_cast<clang::CXXMemberCallExpr>(expr)) {
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (!callee || !callee->getIdentifier())
      return false;
    llvm::StringRef name = callee->getName();
    if (name != "grad" && name != "mutable_grad" && name != "get" && name != "at" &&
        name != "value")
      return false;
    for (const clang::Expr *arg : call->arguments())
      if (!repeatable(arg))
        return false;
    return repeatable(call->getImplicitObjectArgument());
  }
  if (const auto *unary = llvm::dyn_cast<clang::UnaryOperator>(expr))
    return unary->getOpcode() == clang::UO_Deref && repeatable(unary->getSubExpr());
  return false;
}

/// Whether the add runs under an `if` or `?:` of its own (inside the micro-batch):
/// other branches (`if (!acc.defined()) acc = g.clone(); else acc += g;`) take
/// .grad too, and a reset after this add alone would not cover them.
bool inABranch(const clang::Stmt *node, const TrainingLoop &loop, clang::ASTContext &ast) {
  const clang::Stmt *body = loopBody(loop.loop);
  for (unsigned depth = 0; node && depth < 64; ++depth) {
    if (node == body)
      return false;
    auto parents = ast.getParents(*node);
    if (parents.empty())
      return false;
    if (parents[0].get<clang::FunctionDecl>() || parents[0].get<clang::LambdaExpr>())
      return false;
    const clang::Stmt *parent = parents[0].get<clang::Stmt>();
    if (const auto *branch = llvm::dyn_cast_or_null<clang::IfStmt>(parent))
      if (branch->getCond() != node)
        return true;
    if (llvm::isa_and_nonnull<clang::ConditionalOperator, clang::SwitchStmt>(parent))
      return true;
    node = parent;
  }
  return false;
}

/// `acc[k] += params[k].grad();` -> `params[k].grad().zero_();` right after it.
std::optional<FindingFix> resetAfterAdd(const TrainingLoop &loop, const TrainingEvent &add,
                                        const TrainingEvent &writeBack, CheckContext &context) {
  if (!add.gradientRead || !repeatable(add.gradientRead))
    return std::nullopt;
  clang::ASTContext &ast = context.astContext();
  if (inABranch(add.stmt, loop, ast))
    return std::nullopt;
  std::optional<std::string> grad = fixits::operandText(add.gradientRead, ast);
  if (!grad)
    return std::nullopt;
  std::optional<std::vector<SourceEdit>> edits =
      fixits::appendInScope(add.stmt, *grad + ".zero_();", ast);
  if (!edits)
    return std::nullopt;
  // Safe when nothing between the add and the write-back reads .grad again.
  bool safe = add.callChain.empty();
  for (const TrainingEvent &event : loop.events)
    if (event.order > add.order && event.order < writeBack.order &&
        (event.kind == EventKind::Clip || event.kind == EventKind::AllReduce ||
         event.kind == EventKind::GradBufferAdd ||
         (event.kind == EventKind::GradDivide && !event.overwritesGradient)))
      safe = false;
  return FindingFix{"reset .grad right after adding it into the buffer", safe, std::move(*edits)};
}

/// "4, 3, 2, 1" for N = 4; "N, N - 1, ..., 1" otherwise.
std::string countsPerMicroBatch(const TrainingLoop &loop) {
  std::optional<int64_t> n = loop.window->steps.constant;
  if (!n || *n < 2 || *n > 8)
    return "N, N - 1, ..., 1";
  std::string out;
  for (int64_t k = *n; k >= 1; --k)
    out += std::to_string(k) + (k > 1 ? ", " : "");
  return out;
}

} // namespace

void GradBufferDoubleCountCheck::check(const TrainingLoop &loop, CheckContext &context) {
  if (!loop.hasWindow() || !loop.opaqueCalls.empty())
    return;
  const TrainingEvent *step = loop.boundaryStep();
  if (!step)
    return;
  // One finding per buffer (a weight and a bias accumulator are two).
  std::vector<const clang::ValueDecl *> reported;
  for (const TrainingEvent *add : loop.eventsOf(EventKind::GradBufferAdd)) {
    if (!countsForTheWindow(*add) || (add->condition != EventCondition::EveryMicroBatch &&
                                      add->condition != EventCondition::NotBoundary))
      continue;
    // The buffer must reach the update: written into .grad before step().
    const TrainingEvent *writeBack = nullptr;
    for (const TrainingEvent *divide : loop.eventsOf(EventKind::GradDivide))
      if (divide->overwritesGradient && countsForTheWindow(*divide) &&
          divide->condition == EventCondition::Boundary && divide->order > add->order &&
          divide->order < step->order && (!divide->buffer || divide->buffer == add->buffer)) {
        writeBack = divide;
        break;
      }
    if (!writeBack || resetEveryMicroBatch(loop, *add, *step) ||
        std::find(reported.begin(), reported.end(), add->buffer) != reported.end())
      continue;
    reported.push_back(add->buffer);
    std::string buffer = add->buffer ? add->buffer->getNameAsString() : "the buffer";
    std::optional<int64_t> n = loop.window->steps.constant;
    std::string factor =
        n ? " = " + std::to_string((*n + 1) / 2) + ((*n + 1) % 2 ? ".5" : "") + "x" : "x";
    // The add is where the fix goes (a reset right after it), also inside a helper
    // of the loop's file; a helper of another file is reported at its call.
    const clang::SourceManager &sources = context.sourceManager();
    clang::SourceLocation at = sources.getFileID(sources.getExpansionLoc(add->loc)) ==
                                       sources.getFileID(sources.getExpansionLoc(loop.loc))
                                   ? add->loc
                                   : loop.reportLocation(*add);
    Finding result = finding(
        at, "the gradient buffer '" + buffer +
                "' receives .grad on every micro-batch, but .grad is "
                "not reset between micro-batches: backward() keeps adding into it, so the buffer "
                "gets the running sum and micro-batch k of the window (" +
                describeSteps(loop) + ") is counted N - k + 1 times (" + countsPerMicroBatch(loop) +
                "): the window's gradient is weighted toward its first micro-batches and about "
                "(N + 1) / 2" +
                factor + " too large");
    result.fix = resetAfterAdd(loop, *add, *writeBack, context);
    result.notes.push_back(windowNote(loop, context));
    result.notes.push_back({writeBack->loc, "the buffer is written into .grad here and step() "
                                            "applies it"});
    result.notes.push_back(
        {add->loc, "fix: reset .grad right after adding it into the buffer (`p.grad().zero_()`, "
                   "or optimizer.zero_grad() after the loop over the parameters)"});
    context.report(std::move(result));
  }
}

GRADLINT_REGISTER_CHECK(GradBufferDoubleCountCheck, "accum-grad-buffer-double-count", 13)

} // namespace gradlint
