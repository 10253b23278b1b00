#include "checks/Check.h"
#include "model/AstHelpers.h"

#include "model/ApiCalls.h"

#include "clang/AST/ExprCXX.h"

namespace gradlint {

namespace {

/// accum-double-world-size-scaling: the loss (or the gradients) divided by the
/// world size although the all-reduce already averages over ranks.
class DoubleWorldSizeScalingCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  ConfirmationPlan confirmation() const override {
    ConfirmationPlan plan;
    plan.programFix = ConfirmationPlan::ProgramFix::AverageOverRanksOnce;
    plan.aboutGradientScale = true;
    return plan;
  }
};

const ScaleFactor *worldSizeFactor(const TrainingEvent &event) {
  for (const ScaleFactor &factor : event.scaling)
    if (factor.isWorldSize)
      return &factor;
  return nullptr;
}

/// The two operands of `a * b` / `a / b`, built-in or overloaded.
std::optional<std::pair<const clang::Expr *, const clang::Expr *>>
operands(const clang::Expr *expr, clang::BinaryOperatorKind builtin,
         clang::OverloadedOperatorKind overloaded) {
  expr = stripCasts(expr)->IgnoreParens();
  if (const auto *op = llvm::dyn_cast<clang::BinaryOperator>(expr))
    if (op->getOpcode() == builtin)
      return std::make_pair(op->getLHS(), op->getRHS());
  if (const auto *op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(expr))
    if (op->getOperator() == overloaded && op->getNumArgs() == 2)
      return std::make_pair(op->getArg(0), op->getArg(1));
  return std::nullopt;
}

bool contains(const clang::Stmt *outer, const clang::Stmt *inner) {
  if (outer == inner)
    return true;
  for (const clang::Stmt *child : outer->children())
    if (child && contains(child, inner))
      return true;
  return false;
}

/// Drops the world size from one division: `x / (N * W)` -> `x / N`,
/// `x / W` -> `x`, `x * (1.0 / W)` -> `x`, `g.div_(W);` deleted.
std::optional<FindingFix> dropWorldSize(const ScaleFactor &factor, CheckContext &context) {
  if (!factor.site || !factor.divisor)
    return std::nullopt;
  clang::ASTContext &ast = context.astContext();
  auto fix = [](std::optional<SourceEdit> edit) -> std::optional<FindingFix> {
    if (!edit)
      return std::nullopt;
    return FindingFix{"drop the world-size factor from this division", true, {*edit}};
  };
  if (factor.isAccumulationSteps) {
    // One divisor for both: keep the factor that is not the world size.
    auto product = operands(factor.divisor, clang::BO_Mul, clang::OO_Star);
    if (!product)
      return std::nullopt;
    bool firstIsWorld = context.facts().isWorldSize({product->first, nullptr});
    bool secondIsWorld = context.facts().isWorldSize({product->second, nullptr});
    if (firstIsWorld == secondIsWorld)
      return std::nullopt;
    std::optional<std::string> kept =
        fixits::operandText(firstIsWorld ? product->second : product->first, ast);
    return kept ? fix(fixits::replaceExpr(factor.divisor, *kept)) : std::nullopt;
  }
  const auto *site = llvm::dyn_cast<clang::Expr>(factor.site);
  if (!site)
    return std::nullopt;
  if (auto quotient = operands(site, clang::BO_Div, clang::OO_Slash)) {
    // The left operand of `/` binds at least as tightly as the division.
    std::optional<std::string> dividend = fixits::operandText(quotient->first, ast);
    return dividend ? fix(fixits::replaceExpr(site, *dividend)) : std::nullopt;
  }
  if (auto product = operands(site, clang::BO_Mul, clang::OO_Star)) {
    const clang::Expr *other =
        contains(product->first, factor.divisor) ? product->second : product->first;
    std::optional<std::string> kept = fixits::operandText(other, ast);
    return kept ? fix(fixits::replaceExpr(site, *kept)) : std::nullopt;
  }
  bool compoundDivide = operands(site, clang::BO_DivAssign, clang::OO_SlashEqual).has_value();
  const auto *call = llvm::dyn_cast<clang::CXXMemberCallExpr>(stripImplicit(site)->IgnoreParens());
  if (compoundDivide || call) {
    // A division that is a statement of its own goes; one inside an
    // expression leaves its operand.
    if (const clang::Stmt *statement = fixits::statementInBlock(site, ast))
      return fix(fixits::deleteStatement(statement, ast));
    if (call && call->getImplicitObjectArgument())
      if (std::optional<std::string> object =
              fixits::operandText(call->getImplicitObjectArgument(), ast))
        return fix(fixits::replaceExpr(site, *object));
  }
  return std::nullopt;
}

} // namespace

void DoubleWorldSizeScalingCheck::check(const TrainingLoop &loop, CheckContext &context) {
  std::vector<const TrainingEvent *> syncs = loop.eventsOf(EventKind::AllReduce);
  if (syncs.empty())
    return;

  // What already averages over ranks: an AVG all-reduce, or the first
  // division of the gradients by the world size.
  const TrainingEvent *averagingSync = nullptr;
  for (const TrainingEvent *sync : syncs)
    if (sync->reduceOp == ReduceOpKind::Average && !averagingSync)
      averagingSync = sync;
  const TrainingEvent *averagingDivide = nullptr;
  if (!averagingSync)
    for (const TrainingEvent *divide : loop.eventsOf(EventKind::GradDivide))
      if (worldSizeFactor(*divide)) {
        averagingDivide = divide;
        break;
      }
  if (!averagingSync && !averagingDivide)
    return;

  std::string world = loop.worldSize.known() ? "W = " + loop.worldSize.describe() : "W";
  FindingNote averagedNote =
      averagingSync
          ? FindingNote{loop.reportLocation(*averagingSync),
                        "the all-reduce already averages the gradients over ranks (AVG)"}
          : FindingNote{averagingDivide->loc,
                        "the summed gradients are already divided by the world size here"};

  auto reportAt = [&](const ScaleFactor &factor, const std::string &what) {
    Finding result = finding(
        factor.loc, what + " divided by the world size (" + world +
                        ") although the gradient all-reduce already averages over ranks; the "
                        "world size is divided out twice, so the update is 1/W of the "
                        "large-batch update");
    result.fix = dropWorldSize(factor, context);
    result.notes.push_back(averagedNote);
    result.notes.push_back({factor.loc, "fix: drop the world-size factor from this division; "
                                        "divide the loss by the accumulation steps only"});
    context.report(std::move(result));
  };

  for (const TrainingEvent &event : loop.events) {
    // The averaging division itself, also where its helper runs again on
    // other parameters (the generator's, then the discriminator's).
    if (averagingDivide && event.stmt == averagingDivide->stmt)
      continue;
    // A division on the other path of an `if` whose one path holds the
    // averaging division (a CUDA and an MPI communicator): only one runs.
    if (averagingDivide && event.stmt && averagingDivide->stmt &&
        inExclusiveBranches(event.stmt, averagingDivide->stmt, context.astContext()))
      continue;
    const ScaleFactor *factor = worldSizeFactor(event);
    if (!factor)
      continue;
    if (event.kind == EventKind::Backward && !event.sharedBackward)
      reportAt(*factor, "loss is");
    else if (event.kind == EventKind::GradDivide)
      reportAt(*factor, "gradients are");
  }
}

GRADLINT_REGISTER_CHECK(DoubleWorldSizeScalingCheck, "accum-double-world-size-scaling", 5)

} // namespace gradlint
