#include "checks/Check.h"

namespace gradlint {

namespace {

/// accum-unguarded-grad-sync: a gradient all-reduce on every micro-batch of an
/// accumulation window instead of once at the boundary.
class UnguardedGradSyncCheck : public Check {
public:
  using Check::Check;
  void check(const TrainingLoop &loop, CheckContext &context) override;
  ConfirmationPlan confirmation() const override {
    ConfirmationPlan plan;
    plan.programFix = ConfirmationPlan::ProgramFix::SyncAtBoundary;
    plan.countsAllReduces = true;
    return plan;
  }
};

/// The all-reduce moves into the boundary branch, before any clipping there
/// (which must see the averaged gradient) and before step(); when the boundary
/// branch all-reduces already, the misplaced one is deleted.
std::optional<FindingFix> syncFix(const TrainingLoop &loop, const TrainingEvent &sync,
                                  const TrainingEvent &step, CheckContext &context) {
  clang::ASTContext &ast = context.astContext();
  const clang::Stmt *statement = fixits::eventStatement(loop, sync, ast);
  // A guard unrelated to the window moves with it (unsafe: it is then
  // evaluated at the boundary only).
  bool guarded = !statement;
  if (guarded)
    statement = fixits::unrelatedGuardStatement(loop, sync, ast);
  if (!statement)
    return std::nullopt;
  const clang::Stmt *anchor = fixits::blockStatement(step, ast);
  const char *description = "move the all-reduce into the boundary branch, right before step()";
  for (const TrainingEvent &other : loop.events) {
    if (other.condition != EventCondition::Boundary || other.order > step.order)
      continue;
    if (other.kind == EventKind::AllReduce) {
      std::optional<SourceEdit> removal = fixits::deleteStatement(statement, ast);
      if (!removal)
        return std::nullopt;
      return FindingFix{
          "delete the all-reduce: the boundary branch already all-reduces", !guarded, {*removal}};
    }
    if (other.kind == EventKind::Clip && other.callChain.empty()) {
      anchor = fixits::blockStatement(other, ast);
      description = "move the all-reduce into the boundary branch, before the clipping and "
                    "step()";
      break;
    }
  }
  std::optional<FindingFix> fix =
      fixits::moveStatement(statement, anchor, /*after=*/false, description, ast);
  if (fix)
    fix->safe = fixits::isTheCallAlone(statement, sync, ast);
  return fix;
}

} // namespace

void UnguardedGradSyncCheck::check(const TrainingLoop &loop, CheckContext &context) {
  if (!loop.hasWindow())
    return;
  const TrainingEvent *step = loop.boundaryStep();
  if (!step)
    return;
  std::string steps = describeSteps(loop);
  // A division by the world size that also runs on every micro-batch keeps a
  // SUM all-reduce's values right: only the traffic is wasted.
  bool averagedEachTime = false;
  for (const TrainingEvent *divide : loop.eventsOf(EventKind::GradDivide))
    for (const ScaleFactor &factor : divide->scaling)
      averagedEachTime =
          averagedEachTime || (factor.isWorldSize && divide->condition != EventCondition::Boundary);
  for (const TrainingEvent *sync : loop.eventsOf(EventKind::AllReduce)) {
    if (sync->condition == EventCondition::Boundary || sync->steppedEveryMicroBatch)
      continue;
    // Once per window on another micro-batch (the window's first): one
    // all-reduce per step, but of incomplete gradients. Another bug, not this one.
    if (sync->condition == EventCondition::WindowStart ||
        sync->condition == EventCondition::OncePerWindowElsewhere)
      continue;
    std::string consequence;
    switch (sync->reduceOp) {
    case ReduceOpKind::Average:
      consequence = "; the averaged values still match, but it sends N times the bytes";
      break;
    case ReduceOpKind::Sum:
      consequence = averagedEachTime
                        ? "; the sums are divided by the world size each time, so the values "
                          "still match, but it sends N times the bytes"
                        : "; a SUM all-reduce also sums the earlier micro-batches' gradients "
                          "across ranks again at every later all-reduce, over-counting them";
      break;
    case ReduceOpKind::Unknown:
      consequence = "; it sends N times the bytes, and a summing all-reduce over-counts the "
                    "earlier micro-batches";
      break;
    }
    bool viaHelper = !sync->callChain.empty() && loop.reportLocation(*sync) != sync->loc;
    std::string what = viaHelper ? "gradient all-reduce (in '" +
                                       sync->callChain.front().callee->getNameAsString() + "')"
                                 : "gradient all-reduce";
    std::string when = sync->condition == EventCondition::EveryMicroBatch
                           ? "on every micro-batch"
                           : "before the last micro-batch";
    Finding result = finding(loop.reportLocation(*sync),
                             what + " runs " + when + " of an accumulation window of " + steps +
                                 ": N all-reduces per optimizer step instead of 1" + consequence);
    result.fix = syncFix(loop, *sync, *step, context);
    if (viaHelper)
      result.notes.push_back({sync->loc, "the parameter gradients are all-reduced here"});
    result.notes.push_back(windowNote(loop, context));
    result.notes.push_back({step->loc, "fix: all-reduce the gradients in the boundary branch, "
                                       "right before this step()"});
    context.report(std::move(result));
  }
}

GRADLINT_REGISTER_CHECK(UnguardedGradSyncCheck, "accum-unguarded-grad-sync", 4)

} // namespace gradlint
