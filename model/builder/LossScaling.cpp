#include "model/AstHelpers.h"
#include "model/UserCode.h"
#include "model/builder/WalkState.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <functional>
#include <set>

using namespace clang;

namespace gradlint::builder {

namespace {

SourceLocation operatorLoc(const Expr *site) {
  if (auto *binary = dyn_cast<BinaryOperator>(site))
    return binary->getOperatorLoc();
  if (auto *op = dyn_cast<CXXOperatorCallExpr>(site))
    return op->getOperatorLoc();
  if (auto *member = dyn_cast<CXXMemberCallExpr>(site))
    if (auto *callee = dyn_cast<MemberExpr>(member->getCallee()->IgnoreParenImpCasts()))
      return callee->getMemberLoc();
  return site->getBeginLoc();
}

/// Collects every division applied to `value` on its way to backward().
void collectScaling(ValueFacts &facts, ResolvedExpr value, std::vector<RawFactor> &out,
                    std::set<const ValueDecl *> &visited, unsigned depth) {
  if (!value.expr || depth > 16)
    return;
  value = facts.resolve(value);
  const SubstFrame *frame = value.frame;
  const Expr *expr = stripImplicit(value.expr);
  if (auto *binary = dyn_cast<BinaryOperator>(expr)) {
    if (binary->getOpcode() == BO_Div) {
      addFactor(out, binary, binary->getRHS(), frame);
      collectScaling(facts, {binary->getLHS(), frame}, out, visited, depth + 1);
    } else if (binary->getOpcode() == BO_Mul) {
      for (int side = 0; side < 2; ++side) {
        const Expr *factor = side == 0 ? binary->getLHS() : binary->getRHS();
        const Expr *other = side == 0 ? binary->getRHS() : binary->getLHS();
        if (const Expr *divisor = reciprocalOf(facts, factor, frame)) {
          addFactor(out, binary, divisor, frame);
          collectScaling(facts, {other, frame}, out, visited, depth + 1);
          return;
        }
      }
      collectScaling(facts, {binary->getLHS(), frame}, out, visited, depth + 1);
      collectScaling(facts, {binary->getRHS(), frame}, out, visited, depth + 1);
    } else if (binary->getOpcode() == BO_Comma) {
      collectScaling(facts, {binary->getRHS(), frame}, out, visited, depth + 1);
    }
    return;
  }
  if (auto *conditional = dyn_cast<ConditionalOperator>(expr)) {
    collectScaling(facts, {conditional->getTrueExpr(), frame}, out, visited, depth + 1);
    collectScaling(facts, {conditional->getFalseExpr(), frame}, out, visited, depth + 1);
    return;
  }
  // torch::autograd::backward({loss / N}): the tensors of a braced list.
  if (auto *list = dyn_cast<InitListExpr>(expr)) {
    for (const Expr *element : list->inits())
      collectScaling(facts, {element, frame}, out, visited, depth + 1);
    return;
  }
  if (auto *std = dyn_cast<CXXStdInitializerListExpr>(expr)) {
    collectScaling(facts, {std->getSubExpr(), frame}, out, visited, depth + 1);
    return;
  }
  if (auto *construct = dyn_cast<CXXConstructExpr>(expr)) {
    for (const Expr *arg : construct->arguments())
      collectScaling(facts, {arg, frame}, out, visited, depth + 1);
    return;
  }
  if (auto *call = dyn_cast<CallExpr>(expr)) {
    ApiCallInfo info = classifyCall(call, facts.options());
    switch (info.kind) {
    case ApiKind::TensorDivide:
    case ApiKind::TensorScaleInPlace:
    case ApiKind::TensorMultiply:
      if (info.operand) {
        if (info.kind == ApiKind::TensorDivide || dividesInPlace(call, info))
          addFactor(out, call, info.operand, frame);
        else if (const Expr *divisor = reciprocalOf(facts, info.operand, frame))
          addFactor(out, call, divisor, frame);
        else if (info.kind == ApiKind::TensorMultiply)
          collectScaling(facts, {info.operand, frame}, out, visited, depth + 1); // loss * (s / N)
      }
      if (info.object)
        collectScaling(facts, {info.object, frame}, out, visited, depth + 1);
      return;
    default:
      break;
    }
    // A Tensor method that keeps the value: loss.mean(), loss.to(...).
    if (info.object && isOrDerivesFrom(info.object->getType()->getAsCXXRecordDecl(),
                                       "at::TensorBase")) {
      collectScaling(facts, {info.object, frame}, out, visited, depth + 1);
      return;
    }
    // AMP-style scalers: scaler.scale(loss), unless the file defines scale()
    // (an accumulation helper's `scale(loss)` returns loss / N).
    if (info.name == "scale" && call->getNumArgs() == 1 &&
        !inlinableCallee(call, facts.context().getSourceManager())) {
      collectScaling(facts, {call->getArg(0), frame}, out, visited, depth + 1);
      return;
    }
    // A helper of the translation unit that returns the loss, or the one lambda
    // a std::function holds (`loss_fn_(pred, target)`).
    const FunctionDecl *callee = inlinableCallee(call, facts.context().getSourceManager());
    if (!callee)
      callee = callbackLambda(call, frame, facts);
    if (callee) {
      const SubstFrame *inner = facts.pushFrame(callee, call, frame);
      for (const Expr *returned : returnedValues(callee->getBody()))
        collectScaling(facts, {returned, inner}, out, visited, depth + 1);
    }
    return;
  }
  if (const ValueDecl *decl = facts.referencedDecl({expr, frame})) {
    if (!visited.insert(decl).second)
      return;
    // A parameter no frame binds (backward() in a step function the loop's
    // caller runs per micro-batch): its callers' arguments say how it was scaled.
    if (const auto *param = dyn_cast<ParmVarDecl>(decl))
      if (const auto *function = dyn_cast<FunctionDecl>(param->getDeclContext())) {
        unsigned index = param->getFunctionScopeIndex();
        for (const CallExpr *call : callSitesOf(facts, function))
          if (index < call->getNumArgs())
            collectScaling(facts, {call->getArg(index), nullptr}, out, visited, depth + 1);
      }
    for (const ValueOrigin &origin : facts.originsOf(decl)) {
      if (facts.inBranchNeverTaken(origin.site))
        continue;
      switch (origin.kind) {
      case ValueOrigin::Init:
      case ValueOrigin::Assign:
        collectScaling(facts, {origin.value, isa<FieldDecl>(decl) ? nullptr : frame}, out, visited,
                       depth + 1);
        break;
      case ValueOrigin::CompoundDivide:
        addFactor(out, origin.site, origin.value, frame);
        break;
      case ValueOrigin::CompoundMultiply:
        if (const Expr *divisor = reciprocalOf(facts, origin.value, frame))
          addFactor(out, origin.site, divisor, frame);
        break;
      case ValueOrigin::InPlaceCall:
        if (auto *call = dyn_cast<CallExpr>(origin.value)) {
          ApiCallInfo info = classifyCall(call, facts.options());
          if (info.kind == ApiKind::TensorScaleInPlace && info.operand) {
            if (dividesInPlace(call, info))
              addFactor(out, call, info.operand, frame);
            else if (const Expr *divisor = reciprocalOf(facts, info.operand, frame))
              addFactor(out, call, divisor, frame);
          }
        }
        break;
      case ValueOrigin::OutParameter:
      case ValueOrigin::OtherWrite:
        break;
      }
    }
  }
}

/// Calls `visit` for each field of `record` and of its bases.
void forEachField(const CXXRecordDecl *record,
                  const std::function<void(const FieldDecl *)> &visit) {
  if (!record || !record->hasDefinition())
    return;
  for (const FieldDecl *field : record->fields())
    visit(field);
  for (const CXXBaseSpecifier &base : record->bases())
    forEachField(base.getType()->getAsCXXRecordDecl(), visit);
}

bool namesAverage(llvm::StringRef name) {
  std::string lower = name.lower();
  return lower.find("avg") != std::string::npos || lower.find("mean") != std::string::npos ||
         lower.find("average") != std::string::npos;
}

/// The smallest part of `divisor` that is the world size: `world` in `N * world`.
ResolvedExpr worldSizeLeaf(ValueFacts &facts, ResolvedExpr divisor) {
  ResolvedExpr resolved = facts.resolve(divisor);
  const Expr *expr = stripCasts(resolved.expr);
  // const int denom = accum * world;  ->  look inside denom's definition.
  if (auto *ref = dyn_cast<DeclRefExpr>(expr))
    if (const Expr *init = localInitializer(ref->getDecl()))
      if (isa<BinaryOperator>(stripCasts(init)))
        return worldSizeLeaf(facts, {init, nullptr});
  if (isa<BinaryOperator>(expr) || isa<ParenExpr>(expr))
    for (const Stmt *child : expr->children())
      if (auto *childExpr = dyn_cast_or_null<Expr>(child))
        if (facts.isWorldSize({childExpr, resolved.frame}))
          return worldSizeLeaf(facts, {childExpr, resolved.frame});
  return resolved;
}

/// What a loop's header reads to decide how often it runs: the range of a
/// range-for, the condition of the others.
const Expr *loopHeader(const Stmt *loop) {
  if (const auto *range = dyn_cast<CXXForRangeStmt>(loop))
    return range->getRangeInit();
  if (const auto *forStmt = dyn_cast<ForStmt>(loop))
    return forStmt->getCond();
  if (const auto *whileStmt = dyn_cast<WhileStmt>(loop))
    return whileStmt->getCond();
  if (const auto *doStmt = dyn_cast<DoStmt>(loop))
    return doStmt->getCond();
  return nullptr;
}

/// The innermost loop statement around `node` in its function.
/// (through declarations: `auto loss = sum / n;`), or null.
const Stmt *enclosingLoop(const Stmt *node, ASTContext &context) {
  DynTypedNodeList parents = context.getParents(*node);
  for (unsigned depth = 0; !parents.empty() && depth < 64; ++depth) {
    const DynTypedNode &parent = parents[0];
    if (const auto *stmt = parent.get<Stmt>()) {
      if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(stmt))
        return stmt;
    } else if (parent.get<FunctionDecl>() || !parent.get<Decl>()) {
      return nullptr;
    }
    parents = context.getParents(parent);
  }
  return nullptr;
}

bool declaredInside(const Decl *decl, const Stmt *scope, const SourceManager &sm) {
  SourceRange range = scope->getSourceRange();
  SourceLocation loc = decl->getLocation();
  return loc.isValid() && !sm.isBeforeInTranslationUnit(loc, range.getBegin()) &&
         !sm.isBeforeInTranslationUnit(range.getEnd(), loc);
}

/// Whether `tensor` (read at `use`) is a sum over the micro-batches: a
/// variable declared outside the loop around `use`, or a field, that the code
/// adds to (`num_tokens += batch_tokens`).
bool isWindowTotal(ValueFacts &facts, ResolvedExpr tensor, const Expr *use) {
  const ValueDecl *decl = facts.referencedDecl(tensor);
  auto *var = dyn_cast_or_null<VarDecl>(decl);
  if (!decl || (!isa<FieldDecl>(decl) && (!var || isa<ParmVarDecl>(var))))
    return false;
  const Stmt *loop = enclosingLoop(use, facts.context());
  if (var && loop && declaredInside(var, loop, facts.context().getSourceManager()))
    return false;
  return llvm::any_of(facts.originsOf(decl), [](const ValueOrigin &origin) {
    return origin.kind == ValueOrigin::OtherWrite;
  });
}

/// Whether a divisor is a value computed at run time for the whole window:
/// not a constant, and not the micro-batch's own size or a count declared in
/// the loop around the division (a per-micro-batch mean still needs 1/N).
bool isRuntimeWindowValue(ValueFacts &facts, const RawFactor &factor) {
  if (facts.constantNumber(factor.divisor))
    return false;
  ResolvedExpr resolved = facts.resolve(factor.divisor);
  const Expr *expr = stripCasts(resolved.expr)->IgnoreParens();
  // A member read through an object: the object decides where it lives.
  while (auto *member = dyn_cast<MemberExpr>(expr)) {
    if (isa<CXXThisExpr>(member->getBase()->IgnoreParenImpCasts()))
      return true;
    expr = stripCasts(member->getBase())->IgnoreParens();
  }
  if (auto *call = dyn_cast<CallExpr>(expr)) {
    ApiCallInfo info = classifyCall(call, facts.options());
    // x.size(0), mask.sum(): a count of this micro-batch, unless the tensor
    // is a total kept across the micro-batches (`tokens += n` in the loop).
    if (info.object &&
        isOrDerivesFrom(info.object->getType()->getAsCXXRecordDecl(), "at::TensorBase"))
      return isWindowTotal(facts, {info.object, resolved.frame}, expr);
    return true;
  }
  const ValueDecl *decl = facts.referencedDecl({expr, resolved.frame});
  if (!decl)
    return false;
  if (isa<FieldDecl>(decl))
    return true;
  auto *var = dyn_cast<VarDecl>(decl);
  if (!var)
    return false;
  if (!var->hasLocalStorage() || isa<ParmVarDecl>(var))
    return true;
  const Stmt *loop = enclosingLoop(factor.site, facts.context());
  return !loop || !declaredInside(var, loop, facts.context().getSourceManager());
}

/// `loss * (rows * width / total_pixels)`: a number computed per micro-batch
/// over a total, the micro-batch's share of the window (the shares sum to 1).
bool isShareOfWindow(ValueFacts &facts, const RawFactor &factor) {
  auto *quotient = dyn_cast_or_null<BinaryOperator>(factor.site);
  if (!quotient || quotient->getOpcode() != BO_Div)
    return false;
  const Expr *numerator = quotient->getLHS();
  const Stmt *loop = enclosingLoop(quotient, facts.context());
  if (!loop || !numerator->getType()->isArithmeticType() || facts.constantNumber({numerator, nullptr}))
    return false;
  bool perMicroBatch = false;
  std::function<void(const Stmt *)> visit = [&](const Stmt *node) {
    if (!node || perMicroBatch)
      return;
    if (auto *ref = dyn_cast<DeclRefExpr>(node))
      if (auto *var = dyn_cast<VarDecl>(ref->getDecl()))
        perMicroBatch = var->hasLocalStorage() && !isa<ParmVarDecl>(var) &&
                        declaredInside(var, loop, facts.context().getSourceManager());
    for (const Stmt *child : node->children())
      visit(child);
  };
  visit(numerator);
  return perMicroBatch;
}

/// The factors of a product divisor (`count * world`, through casts and
/// locals initialised to it); the divisor itself when it is no product.
std::vector<ResolvedExpr> productLeaves(ValueFacts &facts, ResolvedExpr value, unsigned depth = 0) {
  ResolvedExpr resolved = facts.resolve(value);
  const Expr *expr = resolved.expr ? stripCasts(resolved.expr)->IgnoreParens() : nullptr;
  if (auto *ref = dyn_cast_or_null<DeclRefExpr>(expr))
    if (const Expr *init = localInitializer(ref->getDecl());
        init && depth < 4 && facts.originsOf(ref->getDecl()).size() == 1)
      return productLeaves(facts, {init, resolved.frame}, depth + 1);
  auto *product = dyn_cast_or_null<BinaryOperator>(expr);
  if (!product || product->getOpcode() != BO_Mul || depth >= 4)
    return {resolved};
  std::vector<ResolvedExpr> leaves = productLeaves(facts, {product->getLHS(), resolved.frame}, depth + 1);
  for (ResolvedExpr leaf : productLeaves(facts, {product->getRHS(), resolved.frame}, depth + 1))
    leaves.push_back(leaf);
  return leaves;
}

} // namespace

namespace {

/// Records the calls of every function of the user's code.
struct CallSiteCollector : RecursiveASTVisitor<CallSiteCollector> {
  ASTContext *context = nullptr;
  std::map<const FunctionDecl *, std::vector<const CallExpr *>> *out = nullptr;

  bool shouldVisitLambdaBody() const { return true; }
  bool TraverseDecl(Decl *decl) {
    if (decl && !isa<TranslationUnitDecl>(decl) &&
        !isUserCode(context->getSourceManager(), decl->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(decl);
  }
  bool VisitCallExpr(CallExpr *call) {
    if (isa<CXXOperatorCallExpr>(call))
      return true; // the object may come first among the arguments
    if (const FunctionDecl *callee = call->getDirectCallee()) {
      if (const FunctionDecl *pattern = callee->getTemplateInstantiationPattern())
        callee = pattern;
      (*out)[callee->getCanonicalDecl()].push_back(call);
    }
    return true;
  }
};

} // namespace

const std::vector<const CallExpr *> &callSitesOf(ValueFacts &facts, const FunctionDecl *function) {
  if (!facts.callSitesCollected) {
    facts.callSitesCollected = true;
    CallSiteCollector collector;
    collector.context = &facts.context();
    collector.out = &facts.callSites;
    collector.TraverseDecl(facts.context().getTranslationUnitDecl());
  }
  return facts.callSites[function->getCanonicalDecl()];
}

/// `1.0 / N` (or a variable initialised to it) -> N.
const Expr *reciprocalOf(ValueFacts &facts, const Expr *expr, const SubstFrame *frame,
                         unsigned depth) {
  if (!expr || depth > 6)
    return nullptr;
  ResolvedExpr resolved = facts.resolve({expr, frame});
  const Expr *e = stripCasts(resolved.expr);
  if (auto *binary = dyn_cast<BinaryOperator>(e))
    if (binary->getOpcode() == BO_Div)
      if (auto one = facts.constantNumber({binary->getLHS(), resolved.frame}))
        if (*one == 1.0)
          return binary->getRHS();
  // 1.0 / tokens with a tensor divisor: an overloaded operator.
  if (auto *op = dyn_cast<CXXOperatorCallExpr>(e))
    if (op->getOperator() == OO_Slash && op->getNumArgs() == 2)
      if (auto one = facts.constantNumber({op->getArg(0), resolved.frame}))
        if (*one == 1.0)
          return op->getArg(1);
  if (auto *ref = dyn_cast<DeclRefExpr>(e))
    if (auto *var = dyn_cast<VarDecl>(ref->getDecl()))
      if (var->getInit() && !isa<ParmVarDecl>(var))
        return reciprocalOf(facts, var->getInit(), nullptr, depth + 1);
  return nullptr;
}

void addFactor(std::vector<RawFactor> &out, const Expr *site, const Expr *divisor,
               const SubstFrame *frame) {
  out.push_back({site, {divisor, frame}, operatorLoc(site)});
}

void collectScaling(ValueFacts &facts, ResolvedExpr value, std::vector<RawFactor> &out) {
  std::set<const ValueDecl *> visited;
  collectScaling(facts, value, out, visited, 0);
}

/// Reads the reduce operation of an all-reduce call: an enumerator such as
/// c10d::ReduceOp::AVG in its arguments or in the options variable's fields
/// (`opts.reduceOp = c10d::ReduceOp::AVG;`), or a method named like
/// all_reduce_mean. c10d's default is SUM.
namespace {
/// `op == Op::Sum` where both sides are enumerators once the helper's
/// parameters are bound to the caller's arguments: which way it goes.
std::optional<bool> enumeratorComparison(ValueFacts &facts, const Expr *cond,
                                         const SubstFrame *frame) {
  auto *binary = dyn_cast_or_null<BinaryOperator>(cond ? stripCasts(cond) : nullptr);
  const Expr *lhs = nullptr, *rhs = nullptr;
  bool equal = false;
  if (binary && (binary->getOpcode() == BO_EQ || binary->getOpcode() == BO_NE)) {
    lhs = binary->getLHS();
    rhs = binary->getRHS();
    equal = binary->getOpcode() == BO_EQ;
  } else if (auto *op = dyn_cast_or_null<CXXOperatorCallExpr>(cond ? stripCasts(cond) : nullptr);
             op && op->getNumArgs() == 2 &&
             (op->getOperator() == OO_EqualEqual || op->getOperator() == OO_ExclaimEqual)) {
    lhs = op->getArg(0);
    rhs = op->getArg(1);
    equal = op->getOperator() == OO_EqualEqual;
  }
  if (!lhs || !rhs)
    return std::nullopt;
  auto enumerator = [&](const Expr *side) -> const EnumConstantDecl * {
    auto *ref = dyn_cast<DeclRefExpr>(stripCasts(facts.resolve({side, frame}).expr));
    return ref ? dyn_cast<EnumConstantDecl>(ref->getDecl()) : nullptr;
  };
  const EnumConstantDecl *a = enumerator(lhs), *b = enumerator(rhs);
  if (!a || !b)
    return std::nullopt;
  return (a == b) == equal;
}
} // namespace

ReduceOpKind reduceOpOf(ValueFacts &facts, const CallExpr *call, const ApiCallInfo &info,
                        const SubstFrame *frame) {
  bool sawSum = false, sawAverage = false;
  std::function<void(const Expr *, const SubstFrame *, unsigned)> scan =
      [&](const Expr *expr, const SubstFrame *in, unsigned depth) {
        if (!expr || depth > 8)
          return;
        ResolvedExpr resolved = facts.resolve({expr, in});
        expr = stripCasts(resolved.expr);
        // `op == Op::Sum ? ReduceOp::SUM : ReduceOp::AVG` with the caller's op.
        if (auto *choice = dyn_cast<ConditionalOperator>(expr))
          if (std::optional<bool> taken =
                  enumeratorComparison(facts, choice->getCond(), resolved.frame)) {
            scan(*taken ? choice->getTrueExpr() : choice->getFalseExpr(), resolved.frame,
                 depth + 1);
            return;
          }
        if (auto *ref = dyn_cast<DeclRefExpr>(expr)) {
          if (auto *enumerator = dyn_cast<EnumConstantDecl>(ref->getDecl())) {
            sawAverage = sawAverage || namesAverage(enumerator->getName());
            sawSum = sawSum || enumerator->getName().lower().find("sum") != std::string::npos;
            return;
          }
          auto *var = dyn_cast<VarDecl>(ref->getDecl());
          if (!var)
            return;
          // A local's writes are in the same call as the read: same bindings.
          const SubstFrame *local = var->hasLocalStorage() ? resolved.frame : nullptr;
          forEachField(var->getType()->getAsCXXRecordDecl(), [&](const FieldDecl *field) {
            for (const ValueOrigin &origin : facts.originsOf(field)) {
              const Expr *target = nullptr;
              if (auto *assign = dyn_cast<BinaryOperator>(origin.site))
                target = assign->getLHS();
              else if (auto *op = dyn_cast<CXXOperatorCallExpr>(origin.site))
                target = op->getArg(0);
              auto *member = dyn_cast_or_null<MemberExpr>(target ? stripImplicit(target) : nullptr);
              if (member && facts.referencedDecl({member->getBase(), nullptr}) == var)
                scan(origin.value, local, depth + 1);
            }
          });
          if (var->getInit())
            scan(var->getInit(), local, depth + 1);
          return;
        }
        for (const Stmt *child : expr->children())
          if (auto *childExpr = dyn_cast_or_null<Expr>(child))
            scan(childExpr, resolved.frame, depth + 1);
      };
  for (const Expr *arg : call->arguments())
    scan(arg, frame, 0);
  sawAverage = sawAverage || namesAverage(info.name);
  if (sawAverage)
    return ReduceOpKind::Average;
  if (sawSum || info.kind == ApiKind::ProcessGroupAllReduce)
    return ReduceOpKind::Sum;
  return ReduceOpKind::Unknown;
}

void finishFactors(ValueFacts &facts, TrainingLoop &loop, std::vector<RawEvent> &raws,
                   const ResolvedExpr &steps) {
  const Stmt *nestedLoop = loop.window && loop.window->guard.form == GuardForm::NestedLoop
                               ? loop.window->guard.innerLoop
                               : nullptr;
  // N as a parameter of the loop's function: the callers' arguments are N
  // too (an optimizer built in main() with `lr / accumulation_steps`).
  std::vector<ResolvedExpr> stepsAtCallers;
  if (const auto *param = dyn_cast_or_null<ParmVarDecl>(facts.referencedDecl(steps)))
    if (const auto *function = dyn_cast<FunctionDecl>(param->getDeclContext()))
      for (const CallExpr *call : callSitesOf(facts, function))
        if (param->getFunctionScopeIndex() < call->getNumArgs())
          stepsAtCallers.push_back({call->getArg(param->getFunctionScopeIndex()), nullptr});
  auto toScale = [&](const RawFactor &factor) {
    ScaleFactor scale;
    scale.site = factor.site;
    scale.divisor = factor.divisor.expr;
    scale.loc = factor.loc;
    scale.isAccumulationSteps = facts.mentionsAccumulationStepsName(factor.divisor);
    if (nestedLoop && !scale.isAccumulationSteps) {
      // N of a nested window is the inner loop's trip count, however it is written.
      TripCountMatch match = matchTripCount(facts, nestedLoop, factor.divisor);
      scale.isAccumulationSteps = match == TripCountMatch::Same;
      scale.mayBeAccumulationSteps = match == TripCountMatch::Unknown;
    } else if (steps.expr) {
      scale.isAccumulationSteps =
          scale.isAccumulationSteps || facts.growsWith(factor.divisor, steps);
      for (const ResolvedExpr &atCaller : stepsAtCallers)
        scale.isAccumulationSteps =
            scale.isAccumulationSteps || facts.growsWith(factor.divisor, atCaller);
    }
    scale.isWorldSize = facts.isWorldSize(factor.divisor);
    // In a nested window, a value the inner loop's header reads and that is
    // not its trip count sizes the micro-batches (`split(micro_bs)`): a mean.
    bool sizesMicroBatches = false;
    if (nestedLoop && !scale.isAccumulationSteps && !scale.mayBeAccumulationSteps)
      if (const Expr *header = loopHeader(nestedLoop))
        sizesMicroBatches = facts.mentions({header, nullptr}, factor.divisor);
    scale.isRuntimeWindowValue =
        !scale.isAccumulationSteps && !scale.isWorldSize &&
        !sizesMicroBatches &&
        (isRuntimeWindowValue(facts, factor) || isShareOfWindow(facts, factor));
    // 1 / (count * W): the window's count beside the world size.
    if (scale.isWorldSize && !scale.isAccumulationSteps && !sizesMicroBatches)
      for (ResolvedExpr leaf : productLeaves(facts, factor.divisor))
        if (!facts.isWorldSize(leaf) && isRuntimeWindowValue(facts, {factor.site, leaf, factor.loc}))
          scale.isRuntimeWindowValue = true;
    return scale;
  };
  for (RawEvent &raw : raws) {
    for (const RawFactor &factor : raw.factors) {
      ScaleFactor scale = toScale(factor);
      if (scale.isWorldSize && !loop.worldSize.known())
        loop.worldSize = facts.symbolic(worldSizeLeaf(facts, factor.divisor));
      raw.event.scaling.push_back(scale);
    }
    if (raw.event.kind == EventKind::Step) {
      readOptimizer(facts, raw, loop.function);
      for (const RawFactor &factor : raw.learningRateFactors)
        raw.event.learningRateScaling.push_back(toScale(factor));
      for (const RawFactor &factor : raw.weightDecayFactors)
        raw.event.weightDecayScaling.push_back(toScale(factor));
    }
  }
}

} // namespace gradlint::builder
