// What a training loop does with a window still open when its data runs out:
// whether the window counter starts over with the loop, whether a step()
// after the loop flushes the partial window, whether a reset between epochs
// discards it, and how many batches a counted loop runs.
#include "model/ApiCalls.h"
#include "model/AstHelpers.h"
#include "model/UserCode.h"
#include "model/builder/WalkState.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>

using namespace clang;

namespace gradlint::builder {

namespace {

bool contains(const Stmt *outer, SourceLocation inner, const SourceManager &sm) {
  return outer && inner.isValid() && !sm.isBeforeInTranslationUnit(inner, outer->getBeginLoc()) &&
         !sm.isBeforeInTranslationUnit(outer->getEndLoc(), inner);
}

/// Finds API calls of `kinds` in `stmt`, following user helpers a few calls deep.
const Stmt *findApiCall(ValueFacts &facts, const Stmt *stmt, std::initializer_list<ApiKind> kinds,
                        unsigned depth = 0) {
  if (!stmt || isa<LambdaExpr>(stmt))
    return nullptr;
  if (const auto *call = dyn_cast<CallExpr>(stmt)) {
    ApiCallInfo info = classifyCall(call, facts.options());
    for (ApiKind kind : kinds)
      if (info.kind == kind)
        return call;
    if (depth < 3)
      if (const FunctionDecl *callee =
              inlinableCallee(call, facts.context().getSourceManager()))
        if (findApiCall(facts, callee->getBody(), kinds, depth + 1))
          return call;
  }
  for (const Stmt *child : stmt->children())
    if (const Stmt *found = findApiCall(facts, child, kinds, depth))
      return found;
  return nullptr;
}

/// The function a call runs, as written in the file (a template's pattern).
const FunctionDecl *writtenCallee(const CallExpr *call) {
  const FunctionDecl *callee = call->getDirectCallee();
  if (!callee)
    return nullptr;
  if (const FunctionDecl *pattern = callee->getTemplateInstantiationPattern())
    callee = pattern;
  return callee->getCanonicalDecl();
}

/// Collects every function the file calls inside a loop of the caller.
struct CallInLoopFinder : RecursiveASTVisitor<CallInLoopFinder> {
  ASTContext *context = nullptr;
  std::map<const FunctionDecl *, bool> *out = nullptr;

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitLambdaBody() const { return true; }
  bool TraverseDecl(Decl *decl) {
    if (!decl)
      return true;
    if (!isa<TranslationUnitDecl>(decl) &&
        !isUserCode(context->getSourceManager(), decl->getLocation()))
      return true;
    return RecursiveASTVisitor::TraverseDecl(decl);
  }
  bool VisitCallExpr(CallExpr *call) {
    const FunctionDecl *callee = writtenCallee(call);
    if (!callee || out->count(callee))
      return true;
    // A loop around the call in its function, through declarations
    // (`double avg = train_one_epoch(...)`); a lambda's body or a function stops the walk.
    DynTypedNodeList parents = context->getParents(*call);
    for (unsigned depth = 0; !parents.empty() && depth < 64; ++depth) {
      const DynTypedNode &parent = parents[0];
      if (const auto *stmt = parent.get<Stmt>()) {
        if (isa<LambdaExpr>(stmt))
          break;
        if (isLoop(stmt)) {
          (*out)[callee] = true;
          break;
        }
      } else if (parent.get<FunctionDecl>() || !parent.get<Decl>()) {
        break;
      }
      parents = context->getParents(parent);
    }
    return true;
  }
};

bool isCalledInLoop(ValueFacts &facts, const FunctionDecl *function) {
  if (!facts.calledInLoopCollected) {
    facts.calledInLoopCollected = true;
    CallInLoopFinder finder;
    finder.context = &facts.context();
    finder.out = &facts.calledInLoop;
    finder.TraverseDecl(facts.context().getTranslationUnitDecl());
  }
  return facts.calledInLoop.count(function->getCanonicalDecl()) > 0;
}

/// `counter = 0` somewhere in `stmt` (not inside `skip`).
bool setsToZero(ValueFacts &facts, const Stmt *stmt, const ValueDecl *counter, const Stmt *skip) {
  if (!stmt || stmt == skip || isa<LambdaExpr>(stmt))
    return false;
  if (const auto *assign = dyn_cast<BinaryOperator>(stmt))
    if (assign->getOpcode() == BO_Assign &&
        facts.referencedDecl({assign->getLHS(), nullptr}) == counter) {
      std::optional<int64_t> value = facts.constantInt({assign->getRHS(), nullptr});
      if (value && *value == 0)
        return true;
    }
  for (const Stmt *child : stmt->children())
    if (setsToZero(facts, child, counter, skip))
      return true;
  return false;
}

/// `for (int i = 0; i < B; ++i)` whose index is `counter`: B.
const Expr *countedBound(ValueFacts &facts, const Stmt *loop, const ValueDecl *counter) {
  // The counter is the for's own: it restarts whenever the loop runs.
  const auto *forStmt = dyn_cast<ForStmt>(loop);
  const auto *decl = forStmt ? dyn_cast_or_null<DeclStmt>(forStmt->getInit()) : nullptr;
  if (!counter || !decl || !decl->isSingleDecl() || decl->getSingleDecl() != counter)
    return nullptr;
  std::optional<CountedLoop> counted = readCountedLoop(facts, loop);
  std::optional<int64_t> start =
      counted ? facts.constantInt({counted->start, nullptr}) : std::nullopt;
  if (!counted || counted->counter != counter || counted->inclusive || !start || *start != 0)
    return nullptr;
  return counted->bound;
}

/// B is a multiple of N: both constants, or `N * k` / `k * N`.
bool multipleOfSteps(ValueFacts &facts, const Expr *bound, const SymbolicValue &steps) {
  std::optional<int64_t> count = facts.constantInt({bound, nullptr});
  if (count && steps.constant && *steps.constant > 0)
    return *count % *steps.constant == 0;
  if (const auto *product = dyn_cast<BinaryOperator>(stripCasts(bound)->IgnoreParens()))
    if (product->getOpcode() == BO_Mul && steps.expr)
      for (const Expr *factor : {product->getLHS(), product->getRHS()})
        if (facts.sameValue({factor, nullptr}, {steps.expr, nullptr}))
          return true;
  return false;
}

} // namespace

void readLoopEnd(ValueFacts &facts, TrainingLoop &loop) {
  if (loop.kind != LoopKind::Loop || !loop.loop || !loop.function || !loop.window ||
      loop.window->guard.form == GuardForm::NestedLoop)
    return;
  ASTContext &context = facts.context();
  const SourceManager &sm = context.getSourceManager();
  LoopEnd &end = loop.end;
  const ValueDecl *counter = loop.window->guard.counter;

  // The statements that run after the loop until its next run: up to the
  // epoch loop's body, or the function's end.
  std::vector<std::pair<const Stmt *, const Stmt *>> enclosing; // (block, child holding the loop)
  const Stmt *child = loop.loop;
  for (const Stmt *parent = parentStmt(child, context); parent;
       child = parent, parent = parentStmt(parent, context)) {
    if (isLoop(parent)) {
      end.epochLoop = parent;
      break;
    }
    if (isa<LambdaExpr>(parent))
      break;
    enclosing.push_back({parent, child});
  }
  for (auto [block, holder] : enclosing) {
    const auto *compound = dyn_cast<CompoundStmt>(block);
    if (!compound)
      continue;
    // Only the statements near the loop: a function of thousands of loops
    // must not scan all its statements for each of them.
    constexpr long kNearby = 32;
    auto body = compound->body();
    auto holderAt = std::find(body.begin(), body.end(), holder);
    long index = 0, holderIndex = holderAt - body.begin();
    bool after = false;
    for (const Stmt *statement : body) {
      long distance = index++ - holderIndex;
      if (statement == holder) {
        after = true;
        continue;
      }
      if (distance > kNearby || distance < -kNearby)
        continue;
      if (after && !end.flush)
        end.flush = findApiCall(facts, statement, {ApiKind::OptimizerStep});
      // A reset between runs of the loop: in the epoch loop, or before the loop in
      // a function that runs one epoch. One guarded by the window counter
      // (`if (micro == 0) zero_grad()`) runs only when no window is open.
      bool guardedByCounter = false;
      if (const auto *branch = dyn_cast<IfStmt>(statement))
        guardedByCounter = counter && refersTo(branch->getCond(), counter);
      if ((end.epochLoop || !after) && !end.epochReset && !guardedByCounter)
        end.epochReset =
            findApiCall(facts, statement, {ApiKind::OptimizerZeroGrad, ApiKind::ModuleZeroGrad});
    }
  }

  // Does the counter start over with the loop?
  const Stmt *scope = end.epochLoop ? loopBody(end.epochLoop) : loop.function->getBody();
  if (const auto *var = dyn_cast_or_null<VarDecl>(counter)) {
    const auto *forStmt = dyn_cast<ForStmt>(loop.loop);
    const auto *init = forStmt ? dyn_cast_or_null<DeclStmt>(forStmt->getInit()) : nullptr;
    bool loopIndex = init && llvm::is_contained(init->decls(), var);
    if (loopIndex)
      end.counter = CounterScope::RestartsWithLoop;
    else if (isa<ParmVarDecl>(var))
      end.counter = CounterScope::Unknown; // the caller's counter, or its starting value
    else if (!var->hasLocalStorage())
      end.counter = CounterScope::RunsAcross;
    else if (!end.epochLoop || contains(loopBody(end.epochLoop), var->getLocation(), sm))
      end.counter = CounterScope::RestartsWithLoop; // declared anew for each run of the loop
    else
      end.counter = CounterScope::RunsAcross;
  } else if (isa_and_nonnull<FieldDecl>(counter)) {
    end.counter = CounterScope::RunsAcross;
  }
  if (end.counter == CounterScope::RunsAcross && counter &&
      setsToZero(facts, scope, counter, loop.loop))
    end.counter = CounterScope::RestartsWithLoop;

  end.runsPerEpoch = end.epochLoop || isCalledInLoop(facts, writtenFunction(loop.function));

  if ((end.batchCount = countedBound(facts, loop.loop, counter)))
    end.batchCountMultipleOfSteps = multipleOfSteps(facts, end.batchCount, loop.window->steps);
  // A range-for's own counter must start from 0 on each run of the loop.
  const auto *counterVar = dyn_cast_or_null<VarDecl>(counter);
  std::optional<int64_t> start = counterVar && counterVar->getInit()
                                     ? facts.constantInt({counterVar->getInit(), nullptr})
                                     : std::nullopt;
  if (end.batchCount || (end.counter == CounterScope::RestartsWithLoop &&
                         loop.window->guard.form == GuardForm::Modulo && start && *start == 0))
    end.batchCountValue =
        batchesPerRun(facts, loop.loop, end.batchCount, counter, end.batchCountOrigin);
  const std::optional<int64_t> &steps = loop.window->steps.constant;
  if (end.batchCountValue && steps && *steps > 0)
    end.batchCountMultipleOfSteps = *end.batchCountValue % *steps == 0;
}

} // namespace gradlint::builder
