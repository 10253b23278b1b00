// Several optimizers in one scope, each with its own window (actor-critic
// updates, a GAN whose generator and discriminator both accumulate): every
// window is read on its own events, or the resets and steps of one optimizer
// would be measured against the other's window.
#include "model/builder/WalkState.h"

#include <algorithm>

using namespace clang;

namespace gradlint::builder {

namespace {

/// The optimizer whose parameters include `module`'s, when exactly one does.
const ValueDecl *ownerOf(ValueFacts &facts, const ValueDecl *module,
                         const std::vector<const ValueDecl *> &optimizers) {
  const ValueDecl *owner = nullptr;
  for (const ValueDecl *optimizer : optimizers) {
    llvm::SmallPtrSet<const ValueDecl *, 4> modules;
    facts.modulesOptimizedBy(optimizer, modules);
    if (!modules.count(module))
      continue;
    if (owner)
      return nullptr;
    owner = optimizer;
  }
  return owner;
}

} // namespace

std::vector<std::vector<RawEvent>> splitByOptimizer(ValueFacts &facts,
                                                    const std::vector<RawEvent> &raws) {
  std::vector<const RawEvent *> steps;
  std::vector<const ValueDecl *> optimizers, accumulating;
  for (const RawEvent &raw : raws) {
    if (raw.event.kind != EventKind::Step)
      continue;
    const ValueDecl *optimizer = raw.event.optimizer;
    if (!optimizer)
      return {}; // a step() of unknown target: which window it ends is a guess
    steps.push_back(&raw);
    if (std::find(optimizers.begin(), optimizers.end(), optimizer) == optimizers.end())
      optimizers.push_back(optimizer);
    if (std::find(accumulating.begin(), accumulating.end(), optimizer) == accumulating.end() &&
        windowGuardOf(facts, raw))
      accumulating.push_back(optimizer);
  }
  if (accumulating.size() < 2)
    return {};

  auto groupOf = [&](const ValueDecl *optimizer) {
    return static_cast<size_t>(std::find(optimizers.begin(), optimizers.end(), optimizer) -
                               optimizers.begin());
  };
  // Any other event feeds the next step() of the micro-batch; after the last
  // one it belongs to that last step's boundary branch.
  auto groupByPosition = [&](const RawEvent &raw) {
    const RawEvent *next = nullptr, *last = nullptr;
    for (const RawEvent *step : steps) {
      if (step->event.order > raw.event.order && (!next || step->event.order < next->event.order))
        next = step;
      if (!last || step->event.order > last->event.order)
        last = step;
    }
    return groupOf((next ? next : last)->event.optimizer);
  };

  std::vector<std::vector<RawEvent>> groups(optimizers.size());
  for (const RawEvent &raw : raws) {
    size_t group = optimizers.size();
    if (raw.event.optimizer)
      group = groupOf(raw.event.optimizer);
    else if (raw.event.module)
      if (const ValueDecl *owner = ownerOf(facts, raw.event.module, optimizers))
        group = groupOf(owner);
    if (group == optimizers.size())
      group = groupByPosition(raw);
    groups[group].push_back(raw);
  }
  // An optimizer left with no backward() of its own (the position rule gave
  // them all to the other's step, which comes later in the same branch)
  // still accumulates: its gradients come from the backward() calls of the
  // micro-batch before its step. Which model each backward() feeds is not
  // traced, so it sees them all.
  for (std::vector<RawEvent> &group : groups) {
    auto isBackward = [](const RawEvent &raw) { return raw.event.kind == EventKind::Backward; };
    auto step = std::find_if(group.begin(), group.end(), [](const RawEvent &raw) {
      return raw.event.kind == EventKind::Step;
    });
    if (step == group.end() || std::any_of(group.begin(), group.end(), isBackward))
      continue;
    unsigned stepOrder = step->event.order;
    for (const RawEvent &raw : raws)
      if (isBackward(raw) && raw.event.order < stepOrder) {
        group.push_back(raw);
        group.back().event.sharedBackward = true;
      }
  }
  return groups;
}

} // namespace gradlint::builder
