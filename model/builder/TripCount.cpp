// How many times the inner micro-batch loop of a nested window runs, and
// whether a loss divisor is provably that number: `for (auto &c : x.chunk(k))`
// runs k times, so `loss / k`, `loss / chunks.size()` and `loss * (1.0 / k)`
// divide by N.
#include "model/AstHelpers.h"
#include "model/builder/WalkState.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace gradlint::builder {

namespace {

/// What the code says about the trip count of one inner loop.
struct LoopCount {
  /// Expressions equal to the trip count (`k` of `x.chunk(k)`, `n` of `i < n`).
  std::vector<const Expr *> exact;
  /// The container a range-for iterates: its size() is the trip count.
  const ValueDecl *container = nullptr;
  /// Values the trip count may equal without the code showing it: `n` in
  /// `x.split(x.size(0) / n)` (n pieces when n divides the batch), the bound of
  /// a loop whose counter does not visibly start at 0 and step by 1.
  std::vector<const Expr *> inputs;
};

/// `x.chunk(k)`, `torch::chunk(x, k)`, `x.tensor_split(k)`, `x.split(size)`.
void readSplittingCall(const CallExpr *call, LoopCount &count) {
  const FunctionDecl *callee = call->getDirectCallee();
  if (!callee || !callee->getIdentifier())
    return;
  unsigned first = isa<CXXMemberCallExpr>(call) ? 0 : 1;
  if (call->getNumArgs() <= first)
    return;
  const Expr *arg = call->getArg(first);
  if (!stripCasts(arg)->getType()->isIntegralOrEnumerationType())
    return; // split sizes or indices given as a list
  llvm::StringRef name = callee->getName();
  // chunk(k) gives k pieces when k divides the batch, which accumulation
  // code arranges; tensor_split(k) always gives k.
  if (name == "chunk" || name == "tensor_split")
    count.exact.push_back(arg);
  // split(x.size(0) / n) gives n pieces when n divides the batch; split(size)
  // by a size of its own gives a count the code does not show.
  auto *quotient = dyn_cast<BinaryOperator>(stripCasts(arg));
  if (name == "split" && quotient && quotient->getOpcode() == BO_Div)
    count.inputs.push_back(quotient->getRHS());
}

/// The only value a local variable is given: its initialiser (the counter's
/// increments, `++m` or `m += 1`, are counted apart).
const Expr *singleInitializer(ValueFacts &facts, const ValueDecl *decl) {
  const Expr *init = nullptr;
  for (const ValueOrigin &origin : facts.originsOf(decl)) {
    if (origin.kind == ValueOrigin::OtherWrite)
      continue;
    if (origin.kind != ValueOrigin::Init || init)
      return nullptr;
    init = origin.value;
  }
  return init;
}

/// Whether `stmt` increments `counter` by one (`++m`, `m++`, `m += 1`) somewhere.
unsigned countIncrements(ValueFacts &facts, const Stmt *stmt, const ValueDecl *counter) {
  if (!stmt)
    return 0;
  unsigned found = 0;
  if (auto *unary = dyn_cast<UnaryOperator>(stmt))
    if (unary->isIncrementOp() && facts.referencedDecl({unary->getSubExpr(), nullptr}) == counter)
      ++found;
  if (auto *compound = dyn_cast<CompoundAssignOperator>(stmt))
    if (compound->getOpcode() == BO_AddAssign && facts.referencedDecl({compound->getLHS(), nullptr}) == counter) {
      std::optional<int64_t> step = facts.constantInt({compound->getRHS(), nullptr});
      found += step && *step == 1 ? 1 : 2; // a step other than 1 spoils the count
    }
  if (isa<LambdaExpr>(stmt))
    return found;
  for (const Stmt *child : stmt->children())
    found += countIncrements(facts, child, counter);
  return found;
}

/// `i < n`, `i <= n`, `i != n`, `n > i`: the counter, the bound and whether
/// the bound is included.
struct BoundTest {
  const ValueDecl *counter = nullptr;
  const Expr *bound = nullptr;
  bool inclusive = false;
};
std::optional<BoundTest> counterBelowBound(ValueFacts &facts, const Expr *cond) {
  auto *binary = dyn_cast_or_null<BinaryOperator>(cond ? stripCasts(cond) : nullptr);
  if (!binary)
    return std::nullopt;
  BoundTest test;
  const Expr *counter = nullptr;
  switch (binary->getOpcode()) {
  case BO_LE: test.inclusive = true; [[fallthrough]];
  case BO_LT:
  case BO_NE:
    counter = binary->getLHS();
    test.bound = binary->getRHS();
    break;
  case BO_GE: test.inclusive = true; [[fallthrough]];
  case BO_GT:
    counter = binary->getRHS();
    test.bound = binary->getLHS();
    break;
  default: return std::nullopt;
  }
  test.counter = facts.referencedDecl({counter, nullptr});
  if (!test.counter)
    return std::nullopt;
  return test;
}

/// A counted loop `for (int i = 0; i < n; ++i)` or `int m = 0; while (m < n) { ...; ++m; }`
/// runs n times when the counter starts at 0 and only the loop adds 1 to it.
void readCountedBound(ValueFacts &facts, const Stmt *loop, LoopCount &count) {
  const Expr *cond = nullptr;
  if (auto *forStmt = dyn_cast<ForStmt>(loop))
    cond = forStmt->getCond();
  else if (auto *whileStmt = dyn_cast<WhileStmt>(loop))
    cond = whileStmt->getCond();
  std::optional<BoundTest> test = counterBelowBound(facts, cond);
  if (!test || test->inclusive)
    return;
  std::optional<CountedLoop> counted = builder::readCountedLoop(facts, loop);
  std::optional<int64_t> start =
      counted ? facts.constantInt({counted->start, nullptr}) : std::nullopt;
  if (start && *start == 0)
    count.exact.push_back(test->bound);
  else
    count.inputs.push_back(test->bound);
}

/// `std::vector<T> part(first, first + k)`: k elements. A k chosen by a
/// condition (`last ? rest : n`) may be either value.
void readIteratorRange(ValueFacts &facts, const Expr *value, LoopCount &count) {
  auto *construct = dyn_cast<CXXConstructExpr>(value->IgnoreImplicit());
  if (!construct || construct->getNumArgs() < 2 ||
      (construct->getNumArgs() > 2 && !isa<CXXDefaultArgExpr>(construct->getArg(2))))
    return; // (first, last) and the allocator's default
  auto *end = dyn_cast<CXXOperatorCallExpr>(construct->getArg(1)->IgnoreImplicit());
  if (!end || end->getOperator() != OO_Plus || end->getNumArgs() != 2)
    return;
  llvm::FoldingSetNodeID first, base;
  construct->getArg(0)->IgnoreImplicit()->Profile(first, facts.context(), /*Canonical=*/true);
  end->getArg(0)->IgnoreImplicit()->Profile(base, facts.context(), /*Canonical=*/true);
  if (first != base)
    return;
  const Expr *length = end->getArg(1);
  const Expr *chosen = stripCasts(length);
  if (auto *ref = dyn_cast<DeclRefExpr>(chosen))
    if (const Expr *init = localInitializer(ref->getDecl()))
      chosen = stripCasts(init);
  if (auto *choice = dyn_cast<ConditionalOperator>(chosen)) {
    count.inputs.push_back(choice->getTrueExpr());
    count.inputs.push_back(choice->getFalseExpr());
    return;
  }
  count.exact.push_back(length);
}

LoopCount readLoopCount(ValueFacts &facts, const Stmt *loop) {
  LoopCount count;
  if (isa<ForStmt, WhileStmt>(loop))
    readCountedBound(facts, loop, count);
  else if (auto *range = dyn_cast<CXXForRangeStmt>(loop)) {
    const Expr *init = stripCasts(range->getRangeInit());
    if (auto *call = dyn_cast<CallExpr>(init)) {
      readSplittingCall(call, count);
    } else if (const ValueDecl *container = facts.referencedDecl({init, nullptr})) {
      count.container = container;
      // auto chunks = x.chunk(k); for (auto &c : chunks)
      if (const Expr *value = localInitializer(container))
        if (singleInitializer(facts, container)) {
          if (auto *call = dyn_cast<CallExpr>(stripCasts(value)))
            readSplittingCall(call, count);
          readIteratorRange(facts, value, count);
        }
    }
  }
  // `for (i = 0; i < chunks.size(); ++i)`: chunks' own size.
  for (const Expr *bound : std::vector<const Expr *>(count.exact)) {
    auto *size = dyn_cast<CXXMemberCallExpr>(stripCasts(bound));
    if (size && isNamed(size->getDirectCallee(), "size") && size->getNumArgs() == 0)
      if (const ValueDecl *container =
              facts.referencedDecl({size->getImplicitObjectArgument(), nullptr})) {
        count.container = container;
        if (const Expr *value = localInitializer(container))
          if (singleInitializer(facts, container))
            if (auto *call = dyn_cast<CallExpr>(stripCasts(value)))
              readSplittingCall(call, count);
      }
  }
  return count;
}

/// `xs.size()` (or std::size(xs)) for the container `xs`.
bool isSizeOf(ValueFacts &facts, ResolvedExpr value, const ValueDecl *container) {
  if (!container)
    return false;
  value = facts.resolve(value);
  const Expr *expr = stripCasts(value.expr);
  const Expr *object = nullptr;
  if (auto *member = dyn_cast<CXXMemberCallExpr>(expr)) {
    if (isNamed(member->getDirectCallee(), "size") && member->getNumArgs() == 0)
      object = member->getImplicitObjectArgument();
  } else if (auto *call = dyn_cast<CallExpr>(expr)) {
    if (isNamed(call->getDirectCallee(), "size") && call->getNumArgs() == 1)
      object = call->getArg(0);
  }
  if (!object)
    return false;
  llvm::SmallPtrSet<const ValueDecl *, 8> decls;
  facts.aliasDecls({object, value.frame}, decls);
  return decls.count(container) > 0;
}

/// Whether `expr` reads the loop variable of a range-for: `c.size(0)` in
/// `for (auto &c : chunks)` changes with each micro-batch, so it is not the
/// count (however the chunks were made).
bool readsLoopVariable(const Stmt *expr, const VarDecl *variable) {
  if (!expr || !variable)
    return false;
  if (auto *ref = dyn_cast<DeclRefExpr>(expr))
    if (ref->getDecl() == variable)
      return true;
  for (const Stmt *child : expr->children())
    if (readsLoopVariable(child, variable))
      return true;
  return false;
}

} // namespace

SymbolicValue tripCount(ValueFacts &facts, const Stmt *loop) {
  LoopCount count = readLoopCount(facts, loop);
  if (!count.exact.empty())
    return facts.symbolic({count.exact.front(), nullptr});
  SymbolicValue value;
  if (auto *range = dyn_cast<CXXForRangeStmt>(loop)) {
    const Expr *init = range->getRangeInit();
    value = facts.symbolic({init, nullptr});
    value.constant.reset();
    value.text = value.text.empty() ? "the inner loop's length" : value.text + ".size()";
    return value;
  }
  value.text = "the inner loop's trip count";
  value.loc = loop->getBeginLoc();
  return value;
}

std::optional<CountedLoop> readCountedLoop(ValueFacts &facts, const Stmt *loop) {
  const Expr *cond = nullptr;
  if (auto *forStmt = dyn_cast<ForStmt>(loop))
    cond = forStmt->getCond();
  else if (auto *whileStmt = dyn_cast<WhileStmt>(loop))
    cond = whileStmt->getCond();
  std::optional<BoundTest> test = counterBelowBound(facts, cond);
  if (!test)
    return std::nullopt;
  const Expr *init = singleInitializer(facts, test->counter);
  const Stmt *increments = loop;
  if (auto *forStmt = dyn_cast<ForStmt>(loop))
    increments = forStmt->getInc() ? static_cast<const Stmt *>(forStmt->getInc()) : nullptr;
  unsigned steps = countIncrements(facts, increments, test->counter);
  if (auto *forStmt = dyn_cast<ForStmt>(loop))
    steps += countIncrements(facts, forStmt->getBody(), test->counter);
  // The one increment is the counter's only write besides its initialisation.
  size_t writes = 0;
  for (const ValueOrigin &origin : facts.originsOf(test->counter))
    writes += origin.kind == ValueOrigin::OtherWrite;
  if (!init || steps != 1 || writes != 1)
    return std::nullopt;
  return CountedLoop{test->counter, init, test->bound, test->inclusive};
}

TripCountMatch matchTripCount(ValueFacts &facts, const Stmt *loop, ResolvedExpr divisor) {
  if (!loop || !divisor.expr)
    return TripCountMatch::Different;
  if (auto *range = dyn_cast<CXXForRangeStmt>(loop))
    if (readsLoopVariable(facts.resolve(divisor).expr, range->getLoopVariable()))
      return TripCountMatch::Different;
  LoopCount count = readLoopCount(facts, loop);
  // The divisor is read in its helper's frame; the loop's bound in the loop's
  // own scope, so a parameter is compared unresolved as well.
  for (ResolvedExpr candidate : {divisor, ResolvedExpr{divisor.expr, nullptr}}) {
    for (const Expr *exact : count.exact)
      if (facts.sameValue(candidate, {exact, nullptr}) ||
          facts.mentions(candidate, {exact, nullptr}))
        return TripCountMatch::Same;
    if (isSizeOf(facts, candidate, count.container))
      return TripCountMatch::Same;
  }
  for (const Expr *input : count.inputs)
    if (facts.mentions({input, nullptr}, divisor))
      return TripCountMatch::Unknown;
  return TripCountMatch::Different;
}

} // namespace gradlint::builder
