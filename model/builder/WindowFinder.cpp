#include "model/ApiCalls.h"
#include "model/GuardPatterns.h"
#include "model/builder/WalkState.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>
#include <set>

using namespace clang;

namespace gradlint::builder {

namespace {

/// The first loop on the event's path that contains a backward() call.
const Stmt *microBatchLoopOf(const RawEvent &raw, const std::set<const Stmt *> &backwardLoops) {
  for (const Stmt *loop : raw.loopPath)
    if (backwardLoops.count(loop))
      return loop;
  return nullptr;
}

/// When an event runs relative to `window`; `unrelated` is set when a guard on
/// its path is not about the window.
EventCondition classify(ValueFacts &facts, const RawEvent &raw, const WindowPattern &window,
                        const Guard &windowGuard, bool &unrelated) {
  EventCondition result = EventCondition::EveryMicroBatch;
  auto rank = [](EventCondition c) {
    switch (c) {
    case EventCondition::Boundary: return 4;
    case EventCondition::WindowStart: return 3;
    case EventCondition::OncePerWindowElsewhere: return 2;
    case EventCondition::NotBoundary: return 1;
    case EventCondition::EveryMicroBatch: return 0;
    }
    return 0;
  };
  std::optional<int64_t> steps =
      window.steps.expr ? facts.constantInt(window.steps) : std::nullopt;
  int64_t boundary = canonicalResidue(window.residue, steps);
  for (const Guard &guard : raw.guards) {
    std::optional<ParsedGuard> parsed =
        parseGuard(guard.condition, guard.frame, guard.negated, facts);
    bool sameWindow = false;
    if (parsed) {
      const WindowPattern &p = parsed->pattern;
      if (p.steps.expr && window.steps.expr)
        sameWindow = facts.sameValue(p.steps, window.steps);
      else if (!p.steps.expr)
        sameWindow = p.counter && p.counter == window.counter;
    }
    if (!sameWindow) {
      unrelated = true;
      continue;
    }
    // Read at the boundary guard's time: a modulo guard evaluated k increments
    // of the counter earlier holds k micro-batches later in the window.
    int64_t shift = 0;
    if (window.form == GuardForm::Modulo && window.counter && parsed->pattern.counter == window.counter)
      shift = std::count(windowGuard.incrementedBefore.begin(), windowGuard.incrementedBefore.end(),
                         window.counter) -
              std::count(guard.incrementedBefore.begin(), guard.incrementedBefore.end(),
                         window.counter);
    int64_t residue = canonicalResidue(parsed->pattern.residue + shift, steps);
    EventCondition condition = EventCondition::EveryMicroBatch;
    if (residue == boundary)
      condition = parsed->holds ? EventCondition::Boundary : EventCondition::NotBoundary;
    else if (parsed->holds)
      condition = residue == canonicalResidue(window.residue + 1, steps)
                      ? EventCondition::WindowStart
                      : EventCondition::OncePerWindowElsewhere;
    else
      unrelated = true;
    if (rank(condition) > rank(result))
      result = condition;
  }
  return result;
}

/// The index a counted inner loop declares (`for (int m = 0; m < N; ++m)`), or null.
const ValueDecl *innerLoopIndex(const Stmt *inner) {
  const auto *forStmt = dyn_cast<ForStmt>(inner);
  const auto *init = forStmt ? dyn_cast_or_null<DeclStmt>(forStmt->getInit()) : nullptr;
  return init && init->isSingleDecl() ? dyn_cast<VarDecl>(init->getSingleDecl()) : nullptr;
}

/// Whether `guard` holds on the last iteration of the counted inner loop
/// `for (i = a; i < B; i += s)` and only there: `i + s >= B` (or `B <= i + s`,
/// `i + 1 >= B` for `++i`), directly or through a flag or a parameter.
bool testsLastIteration(ValueFacts &facts, const Guard &guard, const Stmt *inner) {
  const auto *forStmt = dyn_cast<ForStmt>(inner);
  const ValueDecl *index = innerLoopIndex(inner);
  const auto *bound = forStmt ? dyn_cast_or_null<BinaryOperator>(stripCasts(forStmt->getCond()))
                              : nullptr;
  if (!index || !bound || bound->getOpcode() != BO_LT ||
      facts.referencedDecl({bound->getLHS(), nullptr}) != index)
    return false;
  const Expr *stride = nullptr;
  if (const auto *add = dyn_cast_or_null<CompoundAssignOperator>(forStmt->getInc());
      add && add->getOpcode() == BO_AddAssign)
    stride = add->getRHS();
  else if (const auto *increment = dyn_cast_or_null<UnaryOperator>(forStmt->getInc());
           !increment || !increment->isIncrementOp())
    return false;
  ResolvedExpr condition{guard.condition, guard.frame};
  bool negated = guard.negated;
  for (unsigned depth = 0; depth < 8; ++depth) {
    condition = facts.resolve(condition);
    const Expr *expr = condition.expr ? stripCasts(condition.expr) : nullptr;
    if (!expr)
      return false;
    if (const auto *unary = dyn_cast<UnaryOperator>(expr); unary && unary->getOpcode() == UO_LNot) {
      negated = !negated;
      condition = {unary->getSubExpr(), condition.frame};
      continue;
    }
    const auto *compare = dyn_cast<BinaryOperator>(expr);
    if (!compare) {
      // A flag: bool last = i + s >= B;
      const auto *var = dyn_cast_or_null<VarDecl>(facts.referencedDecl(condition));
      const std::vector<ValueOrigin> &origins =
          var ? facts.originsOf(var) : std::vector<ValueOrigin>{};
      if (origins.size() != 1 || origins.front().kind != ValueOrigin::Init)
        return false;
      condition = {origins.front().value, condition.frame};
      continue;
    }
    const Expr *next = nullptr, *limit = nullptr;
    if (compare->getOpcode() == BO_GE)
      next = compare->getLHS(), limit = compare->getRHS();
    else if (compare->getOpcode() == BO_LE)
      next = compare->getRHS(), limit = compare->getLHS();
    const auto *sum = next ? dyn_cast<BinaryOperator>(stripCasts(next)) : nullptr;
    if (negated || !sum || sum->getOpcode() != BO_Add ||
        !facts.sameValue({limit, condition.frame}, {bound->getRHS(), nullptr}))
      return false;
    for (int side = 0; side < 2; ++side) {
      const Expr *counter = side == 0 ? sum->getLHS() : sum->getRHS();
      const Expr *step = side == 0 ? sum->getRHS() : sum->getLHS();
      if (facts.referencedDecl({counter, condition.frame}) != index)
        continue;
      if (stride ? facts.sameValue({step, condition.frame}, {stride, nullptr})
                 : facts.constantInt({step, condition.frame}) == std::optional<int64_t>(1))
        return true;
    }
    return false;
  }
  return false;
}

/// When an event inside a nested window's inner loop runs: on every
/// micro-batch, or only on the last (first) one when a guard on the inner
/// loop's own index says so (`if (m == N - 1) sync();`). `unrelated` is set
/// when some guard on its path says something else.
EventCondition innerLoopCondition(ValueFacts &facts, const RawEvent &raw, const Stmt *inner,
                                  const SymbolicValue &steps, bool &unrelated) {
  EventCondition result = EventCondition::EveryMicroBatch;
  const ValueDecl *index = innerLoopIndex(inner);
  std::optional<int64_t> count = steps.constant;
  for (const Guard &guard : raw.guards) {
    std::optional<ParsedGuard> parsed =
        parseGuard(guard.condition, guard.frame, guard.negated, facts);
    bool onIndex = parsed && parsed->holds && index && parsed->pattern.counter == index &&
                   parsed->pattern.steps.expr && steps.expr &&
                   facts.sameValue(parsed->pattern.steps, {steps.expr, nullptr});
    int64_t residue = onIndex ? canonicalResidue(parsed->pattern.residue, count) : 0;
    if ((onIndex && residue == canonicalResidue(-1, count)) ||
        (!onIndex && testsLastIteration(facts, guard, inner)))
      result = EventCondition::Boundary;
    else if (onIndex && residue == 0 && result != EventCondition::Boundary)
      result = EventCondition::WindowStart;
    else
      unrelated = true;
  }
  return result;
}

/// Events up to a step() that runs on every micro-batch belong to that
/// (non-accumulating) optimizer, not to the window.
void markEveryStepSegments(TrainingLoop &loop) {
  if (!loop.window)
    return;
  size_t segmentStart = 0;
  for (size_t i = 0; i < loop.events.size(); ++i) {
    const TrainingEvent &event = loop.events[i];
    if (event.kind != EventKind::Step)
      continue;
    if (event.condition == EventCondition::EveryMicroBatch && !event.insideInnerLoop)
      for (size_t j = segmentStart; j <= i; ++j)
        loop.events[j].steppedEveryMicroBatch = true;
    segmentStart = i + 1;
  }
}

/// The training loop of one window: the scope's events, or one optimizer's.
std::optional<TrainingLoop> findTrainingLoop(ValueFacts &facts, std::vector<RawEvent> &raws,
                                             const Stmt *loopStmt, const FunctionDecl *function) {
  std::set<const Stmt *> backwardLoops;
  for (const RawEvent &raw : raws)
    if (raw.event.kind == EventKind::Backward)
      for (const Stmt *loop : raw.loopPath)
        backwardLoops.insert(loop);

  std::vector<RawEvent *> top, steps, backwards;
  for (RawEvent &raw : raws) {
    if (microBatchLoopOf(raw, backwardLoops))
      continue;
    top.push_back(&raw);
    if (raw.event.kind == EventKind::Step)
      steps.push_back(&raw);
    if (raw.event.kind == EventKind::Backward)
      backwards.push_back(&raw);
  }
  if (steps.empty())
    return std::nullopt;

  TrainingLoop loop;
  loop.kind = loopStmt ? LoopKind::Loop : LoopKind::StepFunction;
  loop.loop = loopStmt;
  loop.function = function;
  loop.loc = loopStmt ? loopStmt->getBeginLoc()
                      : (function ? function->getLocation() : SourceLocation());
  std::vector<RawEvent> kept;

  if (!backwards.empty()) {
    // A flat window: the boundary guard sits on step().
    std::optional<WindowPattern> window;
    Guard matched;
    for (RawEvent *step : steps)
      if (auto found = windowGuardOf(facts, *step)) {
        window = found->first;
        matched = found->second;
        break;
      }
    ResolvedExpr stepsExpr;
    if (window) {
      AccumulationWindow accumulation;
      accumulation.steps = facts.symbolic(window->steps);
      if (!accumulation.steps.constant)
        accumulation.steps.inputDefault = inputDefault(facts, window->steps);
      accumulation.guard.form = window->form;
      // The condition as written at the guard (not the flag's or helper's inside).
      accumulation.guard.condition = matched.condition;
      accumulation.guard.viaEarlyContinue = matched.earlyExit;
      accumulation.guard.counter = window->counter;
      accumulation.guard.residue = window->residue;
      accumulation.guard.viaFlag = window->viaFlag;
      accumulation.guard.viaHelper = window->viaHelper;
      accumulation.guard.lastBatchExtension = window->lastBatchExtension;
      accumulation.guard.loc = matched.condition->getBeginLoc();
      loop.window = accumulation;
      stepsExpr = window->steps;
    } else if (!loopStmt) {
      return std::nullopt; // a plain step function without a window
    }
    for (RawEvent *raw : top) {
      if (window) {
        bool unrelated = false;
        raw->event.condition = classify(facts, *raw, *window, matched, unrelated);
        raw->event.guardedByUnrelatedCondition = unrelated;
      } else {
        raw->event.guardedByUnrelatedCondition = !raw->guards.empty();
      }
      kept.push_back(*raw);
    }
    finishFactors(facts, loop, kept, stepsExpr);
  } else {
    // A nested window: an inner loop runs backward() per micro-batch and
    // step() follows it.
    if (!loopStmt)
      return std::nullopt;
    const Stmt *inner = nullptr;
    unsigned first = ~0u, last = 0;
    for (const RawEvent &raw : raws) {
      const Stmt *micro = microBatchLoopOf(raw, backwardLoops);
      if (!micro || (inner && micro != inner))
        continue;
      if (!raw.loopPath.empty() && raw.loopPath.front() != micro)
        continue; // only an inner loop directly in this loop's body
      inner = micro;
      first = std::min(first, raw.event.order);
      last = std::max(last, raw.event.order);
    }
    if (!inner)
      return std::nullopt;
    // An inner loop that steps itself is a flat window of its own.
    for (const RawEvent &raw : raws)
      if (raw.event.kind == EventKind::Step && microBatchLoopOf(raw, backwardLoops) == inner)
        return std::nullopt;
    bool stepAfter = false;
    for (RawEvent *step : steps)
      stepAfter = stepAfter || step->event.order > last;
    if (!stepAfter)
      return std::nullopt;
    AccumulationWindow accumulation;
    accumulation.steps = tripCount(facts, inner);
    accumulation.guard.form = GuardForm::NestedLoop;
    accumulation.guard.innerLoop = inner;
    accumulation.guard.loc = inner->getBeginLoc();
    loop.window = accumulation;
    for (RawEvent &raw : raws) {
      const Stmt *micro = microBatchLoopOf(raw, backwardLoops);
      if (micro && micro != inner)
        continue;
      if (micro) {
        raw.event.insideInnerLoop = true;
        bool unrelated = false;
        raw.event.condition =
            innerLoopCondition(facts, raw, inner, accumulation.steps, unrelated);
        raw.event.guardedByUnrelatedCondition = unrelated;
      } else {
        raw.event.condition = raw.event.order < first ? EventCondition::WindowStart
                                                      : EventCondition::Boundary;
        raw.event.guardedByUnrelatedCondition = !raw.guards.empty();
      }
      kept.push_back(raw);
    }
    ResolvedExpr stepsExpr{accumulation.steps.expr, nullptr};
    finishFactors(facts, loop, kept, stepsExpr);
  }

  std::sort(kept.begin(), kept.end(), [](const RawEvent &a, const RawEvent &b) {
    return a.event.order < b.event.order;
  });
  for (RawEvent &raw : kept)
    loop.events.push_back(std::move(raw.event));
  markEveryStepSegments(loop);
  return loop;
}

} // namespace

std::optional<std::pair<WindowPattern, Guard>> windowGuardOf(ValueFacts &facts,
                                                            const RawEvent &step) {
  for (const Guard &guard : step.guards) {
    std::optional<ParsedGuard> parsed =
        parseGuard(guard.condition, guard.frame, guard.negated, facts);
    if (!parsed || !parsed->holds || !parsed->pattern.steps.expr)
      continue;
    // `if (memory_counter > CAPACITY) learn();` with a counter never reset
    // steps on every iteration once past the threshold: no window.
    if (parsed->pattern.threshold && onlyIncremented(parsed->pattern.counter, facts))
      continue;
    // `samples += x.size(0); if (samples >= 256)`: a window of 256 samples, not of
    // 256 micro-batches; how many micro-batches is not known, so no window is claimed.
    if (advancedByOtherThanOne(parsed->pattern.counter, facts))
      continue;
    return std::make_pair(parsed->pattern, guard);
  }
  return std::nullopt;
}

std::vector<TrainingLoop> findTrainingLoops(ValueFacts &facts, std::vector<RawEvent> &raws,
                                            const Stmt *loopStmt, const FunctionDecl *function) {
  std::vector<TrainingLoop> loops;
  std::vector<std::vector<RawEvent>> perOptimizer = splitByOptimizer(facts, raws);
  if (perOptimizer.empty()) {
    if (auto loop = findTrainingLoop(facts, raws, loopStmt, function))
      loops.push_back(std::move(*loop));
    return loops;
  }
  for (std::vector<RawEvent> &events : perOptimizer)
    if (auto loop = findTrainingLoop(facts, events, loopStmt, function))
      loops.push_back(std::move(*loop));
  return loops;
}

} // namespace gradlint::builder
