// What the optimizer behind a step() is and the learning rate and weight decay
// it was given:
// `SGD opt(params, SGDOptions(lr / accum_steps))` divides the learning rate by
// N instead of the loss, which the missing-division check must weigh.
#include "model/ApiCalls.h"
#include "model/AstHelpers.h"
#include "model/builder/WalkState.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

#include <map>
#include <set>

using namespace clang;

namespace gradlint::builder {

namespace {

OptimizerAlgorithm algorithmOf(const CXXRecordDecl *record) {
  if (isOrDerivesFrom(record, "torch::optim::SGD"))
    return OptimizerAlgorithm::Sgd;
  for (const char *adaptive : {"torch::optim::Adam", "torch::optim::AdamW", "torch::optim::RMSprop",
                               "torch::optim::Adagrad"})
    if (isOrDerivesFrom(record, adaptive))
      return OptimizerAlgorithm::Adaptive;
  return OptimizerAlgorithm::Unknown;
}

/// Reads the learning rates the optimizer gets from its options and from
/// setters (`options.lr(x)`, `opt.param_groups()[0].options().set_lr(x)`).
struct LearningRateReader {
  ValueFacts &facts;
  const ValueDecl *optimizer;
  std::vector<RawFactor> &out;
  std::vector<RawFactor> &weightDecayOut;
  llvm::SmallPtrSet<const ValueDecl *, 4> optionVariables;
  /// Bodies that may set the learning rate (the helpers that build the options, too).
  std::vector<const Stmt *> scopes;
  /// A helper's body is read with its call's arguments for its parameters.
  std::map<const Stmt *, const SubstFrame *> scopeFrames;

  /// Inside an options-building helper: its parameters stand for the call's arguments.
  const SubstFrame *frame = nullptr;
  /// The class the construction builds (`make_shared<Adam>` behind a
  /// `shared_ptr<Optimizer>`), when it shows one.
  const CXXRecordDecl *constructed = nullptr;

  void learningRate(const Expr *value) { collectScaling(facts, {value, frame}, out); }
  void weightDecay(const Expr *value) { collectScaling(facts, {value, frame}, weightDecayOut); }

  /// `SGDOptions(lr / N).momentum(0.9)`, `options`, `AdamOptions(lr)`.
  void options(const Expr *expr, unsigned depth = 0) {
    if (!expr || depth > 8)
      return;
    // stripCasts sees through the converting constructor SGDOptions(double):
    // what is left of `SGDOptions(lr / N)` is the learning rate itself.
    expr = stripCasts(expr);
    if (expr->getType()->isRealFloatingType() || expr->getType()->isIntegerType()) {
      learningRate(expr);
      return;
    }
    // A helper of the translation unit that builds the options.
    if (auto *call = dyn_cast<CallExpr>(expr))
      if (const FunctionDecl *helper =
              inlinableCallee(call, facts.context().getSourceManager())) {
        const SubstFrame *saved = frame;
        frame = facts.pushFrame(helper, call, saved);
        scopes.push_back(helper->getBody());
        scopeFrames[helper->getBody()] = frame;
        for (const Expr *returned : returnedValues(helper->getBody()))
          options(returned, depth + 1);
        frame = saved;
        return;
      }
    if (auto *call = dyn_cast<CXXMemberCallExpr>(expr)) {
      if (isNamed(call->getDirectCallee(), "lr") && call->getNumArgs() == 1)
        learningRate(call->getArg(0));
      if (isNamed(call->getDirectCallee(), "weight_decay") && call->getNumArgs() == 1)
        weightDecay(call->getArg(0));
      options(call->getImplicitObjectArgument(), depth + 1);
      return;
    }
    if (auto *construct = dyn_cast<CXXConstructExpr>(expr)) {
      if (construct->getNumArgs() >= 1)
        options(construct->getArg(0), depth + 1);
      return;
    }
    const ValueDecl *decl = facts.referencedDecl({expr, nullptr});
    if (!decl || !optionVariables.insert(decl).second)
      return;
    for (const ValueOrigin &origin : facts.originsOf(decl))
      if (origin.kind == ValueOrigin::Init || origin.kind == ValueOrigin::Assign)
        options(origin.value, depth + 1);
  }

  /// `SGD opt(params, options)`: the options argument of the optimizer's construction.
  void construction(const Expr *value, unsigned depth = 0) {
    const Expr *built = value ? stripImplicit(value)->IgnoreImplicit() : nullptr;
    if (!built || depth > 4)
      return;
    // new Adam(params, options)
    if (auto *allocation = dyn_cast<CXXNewExpr>(built))
      built = allocation->getConstructExpr();
    if (auto *construct = dyn_cast_or_null<CXXConstructExpr>(built)) {
      constructed = construct->getType()->getAsCXXRecordDecl();
      if (construct->getNumArgs() >= 2)
        options(construct->getArg(1));
      return;
    }
    auto *call = dyn_cast_or_null<CallExpr>(built);
    const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
    if (!callee)
      return;
    // std::make_unique<Adam>(params, options) / std::make_shared<...>(...).
    if ((isNamed(callee, "make_unique") || isNamed(callee, "make_shared")) &&
        call->getNumArgs() >= 2) {
      if (const TemplateArgumentList *arguments = callee->getTemplateSpecializationArgs())
        if (arguments->size() >= 1 && arguments->get(0).getKind() == TemplateArgument::Type)
          constructed = arguments->get(0).getAsType()->getAsCXXRecordDecl();
      options(call->getArg(1));
      return;
    }
    // A helper of the translation unit that builds and returns the optimizer.
    if (const FunctionDecl *helper = inlinableCallee(call, facts.context().getSourceManager())) {
      const SubstFrame *saved = frame;
      frame = facts.pushFrame(helper, call, saved);
      scopes.push_back(helper->getBody());
      scopeFrames[helper->getBody()] = frame;
      for (const Expr *returned : returnedValues(helper->getBody()))
        construction(returned, depth + 1);
      frame = saved;
    }
  }

  /// Whether `object` is the optimizer's parameter group options or one of
  /// its option variables: `opt.param_groups()[0].options()`, `options`.
  bool setsOptimizer(const Expr *object, unsigned depth = 0) {
    if (!object || depth > 8)
      return false;
    object = stripCasts(object);
    if (const ValueDecl *decl = facts.referencedDecl({object, nullptr})) {
      if (decl == optimizer || optionVariables.count(decl))
        return true;
      // `auto &group = static_cast<AdamOptions &>(opt.param_groups()[0].options())`,
      // and the variable of `for (auto &group : opt->param_groups())` (its
      // initialiser dereferences the range's iterator).
      const auto *var = dyn_cast<VarDecl>(decl);
      return var && !isa<ParmVarDecl>(var) && var->hasLocalStorage() && var->getInit() &&
             setsOptimizer(var->getInit(), depth + 1);
    }
    if (auto *call = dyn_cast<CXXMemberCallExpr>(object))
      return setsOptimizer(call->getImplicitObjectArgument(), depth + 1);
    if (auto *op = dyn_cast<CXXOperatorCallExpr>(object))
      return (op->getOperator() == OO_Subscript || op->getOperator() == OO_Star) &&
             setsOptimizer(op->getArg(0), depth + 1);
    if (auto *unary = dyn_cast<UnaryOperator>(object))
      return unary->getOpcode() == UO_Deref && setsOptimizer(unary->getSubExpr(), depth + 1);
    return false;
  }

  void setters(const Stmt *stmt) {
    if (!stmt)
      return;
    if (auto *call = dyn_cast<CXXMemberCallExpr>(stmt)) {
      const FunctionDecl *callee = call->getDirectCallee();
      if ((isNamed(callee, "lr") || isNamed(callee, "set_lr")) && call->getNumArgs() == 1 &&
          setsOptimizer(call->getImplicitObjectArgument()))
        learningRate(call->getArg(0));
      if ((isNamed(callee, "weight_decay") || isNamed(callee, "set_weight_decay")) &&
          call->getNumArgs() == 1 && setsOptimizer(call->getImplicitObjectArgument()))
        weightDecay(call->getArg(0));
    }
    for (const Stmt *child : stmt->children())
      setters(child);
  }
};

/// The bodies that may set the optimizer's learning rate: the function that
/// declares it, or every member function of the class that holds it.
std::vector<const Stmt *> settingScopes(const ValueDecl *optimizer, const FunctionDecl *function) {
  std::vector<const Stmt *> scopes;
  if (function && function->getBody())
    scopes.push_back(function->getBody());
  if (auto *field = dyn_cast<FieldDecl>(optimizer)) {
    if (auto *record = dyn_cast<CXXRecordDecl>(field->getParent()))
      for (const CXXMethodDecl *method : record->methods())
        if (method->getBody() && method != function)
          scopes.push_back(method->getBody());
  } else if (auto *owner = dyn_cast_or_null<FunctionDecl>(
                 optimizer->getDeclContext()->getNonClosureAncestor())) {
    if (owner != function && owner->getBody())
      scopes.push_back(owner->getBody());
  }
  return scopes;
}

} // namespace

void readOptimizer(ValueFacts &facts, RawEvent &step, const FunctionDecl *function) {
  const ValueDecl *optimizer = step.event.optimizer;
  if (!optimizer)
    return;
  QualType type = optimizer->getType().getNonReferenceType();
  if (type->isPointerType())
    type = type->getPointeeType();
  // std::unique_ptr<Adam> / std::shared_ptr<Adam>: the pointee's class.
  if (auto *smart = dyn_cast_or_null<ClassTemplateSpecializationDecl>(type->getAsCXXRecordDecl()))
    if ((smart->getName() == "unique_ptr" || smart->getName() == "shared_ptr") &&
        smart->getTemplateArgs().size() >= 1 &&
        smart->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      type = smart->getTemplateArgs()[0].getAsType();
  step.event.algorithm = algorithmOf(type->getAsCXXRecordDecl());
  LearningRateReader reader{facts, optimizer, step.learningRateFactors, step.weightDecayFactors, {},
                            settingScopes(optimizer, function), {}};
  // An optimizer passed in by reference (`train_epoch(model, optimizer, ...)`):
  // the callers' variables are the ones constructed and set.
  std::vector<const ValueDecl *> sources{optimizer};
  if (const auto *param = dyn_cast<ParmVarDecl>(optimizer))
    if (const auto *callee = dyn_cast<FunctionDecl>(param->getDeclContext()))
      for (const CallExpr *call : callSitesOf(facts, callee))
        if (param->getFunctionScopeIndex() < call->getNumArgs())
          if (const ValueDecl *argument =
                  facts.referencedDecl({call->getArg(param->getFunctionScopeIndex()), nullptr});
              argument && !llvm::is_contained(sources, argument)) {
            sources.push_back(argument);
            reader.optionVariables.insert(argument);
            for (const Stmt *scope : settingScopes(argument, nullptr))
              reader.scopes.push_back(scope);
          }
  for (const ValueDecl *source : sources)
    for (const ValueOrigin &origin : facts.originsOf(source))
      if (origin.kind == ValueOrigin::Init || origin.kind == ValueOrigin::Assign)
        reader.construction(origin.value);
  // Declared as the base class (`std::shared_ptr<Optimizer>`): what was built.
  if (step.event.algorithm == OptimizerAlgorithm::Unknown)
    step.event.algorithm = algorithmOf(reader.constructed);
  std::set<const Stmt *> scanned;
  for (size_t i = 0; i < reader.scopes.size(); ++i)
    if (scanned.insert(reader.scopes[i]).second) {
      auto found = reader.scopeFrames.find(reader.scopes[i]);
      reader.frame = found == reader.scopeFrames.end() ? nullptr : found->second;
      reader.setters(reader.scopes[i]);
    }
}

} // namespace gradlint::builder
