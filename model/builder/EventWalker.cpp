#include "model/AstHelpers.h"
#include "model/UserCode.h"
#include "model/builder/WalkState.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>
#include <cmath>

using namespace clang;

namespace gradlint::builder {

namespace {

constexpr unsigned kMaxInlineDepth = 10;

/// `torch::Tensor()`, `{}`, `0` or `torch::zeros_like(p)`: assigning it
/// to a gradient resets it. Any other value overwrites it.
bool clearsGradient(const Expr *value) {
  value = stripCasts(value);
  if (auto *construct = dyn_cast<CXXConstructExpr>(value))
    return construct->getNumArgs() == 0 ||
           (construct->getNumArgs() == 1 && clearsGradient(construct->getArg(0)));
  if (auto *list = dyn_cast<InitListExpr>(value))
    return list->getNumInits() == 0;
  if (auto *integer = dyn_cast<IntegerLiteral>(value))
    return integer->getValue() == 0;
  if (auto *floating = dyn_cast<FloatingLiteral>(value))
    return floating->getValue().isZero();
  if (auto *call = dyn_cast<CallExpr>(value))
    if (auto *callee = call->getDirectCallee())
      return callee->getName() == "zeros_like" || callee->getName() == "zeros";
  return false;
}

/// The optimizer a scheduler variable was constructed on: `StepLR s(opt, ...)`,
/// `std::make_unique<StepLR>(opt, ...)`; null when the code does not show it.
const ValueDecl *scheduledOptimizer(const ValueDecl *scheduler, ValueFacts &facts) {
  if (!scheduler)
    return nullptr;
  for (const ValueOrigin &origin : facts.originsOf(scheduler)) {
    if (origin.kind != ValueOrigin::Init && origin.kind != ValueOrigin::Assign)
      continue;
    const Expr *value = origin.value ? stripCasts(origin.value) : nullptr;
    const Expr *first = nullptr;
    if (auto *construct = dyn_cast_or_null<CXXConstructExpr>(value))
      first = construct->getNumArgs() ? construct->getArg(0) : nullptr;
    else if (auto *call = dyn_cast_or_null<CallExpr>(value))
      first = call->getNumArgs() ? call->getArg(0) : nullptr;
    if (first)
      if (const ValueDecl *optimizer = facts.referencedDecl({first, nullptr}))
        return optimizer;
  }
  return nullptr;
}

/// Tensor methods whose result shares the tensor's storage, so that writing it
/// writes the tensor: `flat.slice(0, a, b).add_(g)` fills `flat`.
bool isViewOfStorage(llvm::StringRef method) {
  static const char *const views[] = {"slice", "narrow", "select", "view", "view_as",
                                      "unsqueeze", "squeeze", "flatten", "reshape"};
  for (const char *view : views)
    if (method == view)
      return true;
  return false;
}

/// The container or variable a tensor expression names: `acc` of `acc`,
/// `grad_accum[k]`, `buffers.at(k)`, `this->sums_[i]`.
const ValueDecl *containerOf(const Expr *expr) {
  for (unsigned i = 0; expr && i < 8; ++i) {
    expr = stripCasts(expr);
    if (auto *subscript = dyn_cast<ArraySubscriptExpr>(expr)) {
      expr = subscript->getBase();
      continue;
    }
    if (auto *op = dyn_cast<CXXOperatorCallExpr>(expr))
      if (op->getOperator() == OO_Subscript && op->getNumArgs() == 2) {
        expr = op->getArg(0);
        continue;
      }
    if (auto *member = dyn_cast<CXXMemberCallExpr>(expr))
      if (const FunctionDecl *callee = member->getDirectCallee();
          callee && callee->getIdentifier() &&
          ((callee->getName() == "at" && member->getNumArgs() == 1) ||
           isViewOfStorage(callee->getName()))) {
        expr = member->getImplicitObjectArgument();
        continue;
      }
    break;
  }
  return expr ? lvalueDecl(expr) : nullptr;
}

/// The `.grad()` call an added value reads directly (`p.grad().to(kFloat)`,
/// `p.grad().detach()`), or null.
const Expr *gradientCallIn(const Expr *value, const ModelOptions &options) {
  if (!value)
    return nullptr;
  value = stripImplicit(value);
  if (auto *call = dyn_cast<CallExpr>(value))
    if (classifyCall(call, options).kind == ApiKind::GradAccess)
      return call;
  for (const Stmt *child : value->children())
    if (auto *expr = dyn_cast_or_null<Expr>(child))
      if (const Expr *found = gradientCallIn(expr, options))
        return found;
  return nullptr;
}

/// Whether a tensor expression is the gradient itself (a handle shares its
/// storage): `p.grad()`, `p.mutable_grad()`, or a variable initialised from one.
bool isGradientItself(const Expr *expr, const ModelOptions &options) {
  expr = stripCasts(expr);
  if (auto *call = dyn_cast<CallExpr>(expr))
    return classifyCall(call, options).kind == ApiKind::GradAccess;
  if (auto *ref = dyn_cast<DeclRefExpr>(expr))
    if (auto *var = dyn_cast<VarDecl>(ref->getDecl()))
      if (const Expr *init = var->getInit())
        if (auto *call = dyn_cast<CallExpr>(stripCasts(init)))
          return classifyCall(call, options).kind == ApiKind::GradAccess;
  return false;
}

/// Walks one scope in source order and records its training events.
struct EventWalker {
  ValueFacts &facts;

  void emit(WalkState &state, EventKind kind, const Stmt *stmt, SourceLocation loc,
            const Expr *optimizerObject = nullptr) {
    RawEvent raw;
    raw.event.kind = kind;
    raw.event.stmt = stmt;
    raw.event.loc = loc;
    raw.event.order = state.nextOrder++;
    raw.event.callChain = state.calls;
    if (optimizerObject)
      raw.event.optimizer = facts.referencedDecl({optimizerObject, state.frame});
    raw.guards = state.guards;
    raw.loopPath = state.loops;
    state.events.push_back(std::move(raw));
  }

  void handleCall(const CallExpr *call, WalkState &state) {
    ApiCallInfo info = classifyCall(call, facts.options());
    const Expr *object = info.object;
    switch (info.kind) {
    case ApiKind::Backward: {
      emit(state, EventKind::Backward, call, call->getBeginLoc());
      const Expr *loss = object ? object : (call->getNumArgs() ? call->getArg(0) : nullptr);
      collectScaling(facts, {loss, state.frame}, state.events.back().factors);
      return;
    }
    case ApiKind::OptimizerStep:
      emit(state, EventKind::Step, call, call->getBeginLoc(), object);
      return;
    case ApiKind::OptimizerZeroGrad:
      emit(state, EventKind::GradReset, call, call->getBeginLoc(), object);
      return;
    case ApiKind::ModuleZeroGrad:
      emit(state, EventKind::GradReset, call, call->getBeginLoc());
      if (object)
        state.events.back().event.module = facts.referencedDecl({object, state.frame});
      return;
    case ApiKind::TensorReset:
      if (object && facts.readsGradient({object, state.frame}) && !onlyWhenUndefined(state))
        emit(state, EventKind::GradReset, call, call->getBeginLoc());
      return;
    case ApiKind::TensorScaleInPlace:
      if (object && info.operand && facts.readsGradient({object, state.frame})) {
        // grad.mul_(0) clears it.
        if (!dividesInPlace(call, info))
          if (std::optional<double> factor = facts.constantNumber({info.operand, state.frame});
              factor && *factor == 0) {
            emit(state, EventKind::GradReset, call, call->getBeginLoc());
            return;
          }
        // grad.mul_(max_norm / total_norm), the factor computed from the
        // gradients' norm: a hand-written clip.
        if (!dividesInPlace(call, info) && !facts.constantNumber({info.operand, state.frame}) &&
            facts.readsGradient({info.operand, state.frame})) {
          emit(state, EventKind::Clip, call, call->getBeginLoc());
          return;
        }
        const Expr *divisor = dividesInPlace(call, info)
                                  ? info.operand
                                  : reciprocalOf(facts, info.operand, state.frame);
        if (divisor) {
          emit(state, EventKind::GradDivide, call, call->getBeginLoc());
          addFactor(state.events.back().factors, call, divisor, state.frame);
        }
      }
      return;
    case ApiKind::ClipGradNorm:
    case ApiKind::ClipGradValue: {
      std::optional<double> limit =
          call->getNumArgs() >= 2 ? facts.constantNumber({call->getArg(1), state.frame})
                                  : std::nullopt;
      // An infinite limit never rescales: the call only measures the norm.
      if (limit && std::isinf(*limit) && *limit > 0)
        return;
      emit(state, EventKind::Clip, call, call->getBeginLoc());
      state.events.back().event.clipByValue = info.kind == ApiKind::ClipGradValue;
      if (limit && *limit > 0)
        state.events.back().event.clipLimit = *limit;
      return;
    }
    case ApiKind::ProcessGroupAllReduce:
    case ApiKind::NamedAllReduce: {
      // A helper the configuration names syncs the gradients whatever its arguments.
      bool onGradients = info.configured;
      for (const Expr *arg : call->arguments())
        onGradients = onGradients || facts.carriesGradient({arg, state.frame});
      if (!onGradients)
        break; // a user function named like allreduce may still be followed below
      emit(state, EventKind::AllReduce, call, call->getBeginLoc());
      state.events.back().event.reduceOp = reduceOpOf(facts, call, info, state.frame);
      if (info.kind == ApiKind::NamedAllReduce && !info.configured)
        followCommunicator(call, state);
      return;
    }
    case ApiKind::SchedulerStep:
      emit(state, EventKind::SchedulerStep, call, call->getBeginLoc());
      if (object)
        state.events.back().event.optimizer =
            scheduledOptimizer(facts.referencedDecl({object, state.frame}), facts);
      return;
    case ApiKind::LossFunction:
      emit(state, EventKind::LossComputation, call, call->getBeginLoc());
      return;
    default:
      break;
    }

    if (recordBufferAdd(call, state) || recordGradientHook(call, state))
      return;

    // grad.copy_(torch::zeros_like(p)) clears it.
    if (auto *member = dyn_cast<CXXMemberCallExpr>(call))
      if (const FunctionDecl *callee = member->getDirectCallee())
        if (callee->getIdentifier() && callee->getName() == "copy_" && member->getNumArgs() >= 1 &&
            clearsGradient(member->getArg(0)) &&
            facts.readsGradient({member->getImplicitObjectArgument(), state.frame})) {
          emit(state, EventKind::GradReset, call, call->getBeginLoc());
          return;
        }
    // grad.copy_(acc): the gradient is replaced by a hand-written buffer.
    if (auto *member = dyn_cast<CXXMemberCallExpr>(call))
      if (const FunctionDecl *callee = member->getDirectCallee())
        if (callee->getIdentifier() && callee->getName() == "copy_" && member->getNumArgs() >= 1 &&
            isGradientItself(member->getImplicitObjectArgument(), facts.options())) {
          const ValueDecl *source = readBuffer(member->getArg(0), state);
          if (source || !facts.readsGradient({member->getArg(0), state.frame})) {
            emit(state, EventKind::GradDivide, call, call->getBeginLoc());
            collectScaling(facts, {member->getArg(0), state.frame}, state.events.back().factors);
            state.events.back().event.overwritesGradient = true;
            state.events.back().event.buffer = source;
          }
          return;
        }

    // grad = torch::Tensor() (a reset) or grad = grad / N (a division).
    if (auto *op = dyn_cast<CXXOperatorCallExpr>(call)) {
      if (op->getOperator() == OO_Equal && op->getNumArgs() == 2) {
        const Expr *lhs = stripImplicit(op->getArg(0));
        // `p.grad().data() = ...` (also through `auto g = p.mutable_grad();`):
        // assigning to the tensor data() returns writes the gradient's own storage.
        bool viaData = false;
        if (auto *data = dyn_cast<CXXMemberCallExpr>(lhs);
            data && data->getNumArgs() == 0 && data->getDirectCallee() &&
            data->getDirectCallee()->getIdentifier() && data->getDirectCallee()->getName() == "data") {
          lhs = stripImplicit(data->getImplicitObjectArgument());
          viaData = true;
        }
        auto *lhsCall = dyn_cast<CallExpr>(lhs);
        if ((lhsCall && classifyCall(lhsCall, facts.options()).kind == ApiKind::GradAccess) ||
            (viaData && isGradientItself(lhs, facts.options()))) {
          std::vector<RawFactor> factors;
          collectScaling(facts, {op->getArg(1), state.frame}, factors);
          if (clearsGradient(op->getArg(1))) {
            if (onlyWhenUndefined(state))
              return; // creates a zero gradient where there was none: clears nothing
            emit(state, EventKind::GradReset, call, call->getBeginLoc());
          } else if (const ValueDecl *source = readBuffer(op->getArg(1), state);
                     bool overwrites =
                         source || !facts.readsGradient({op->getArg(1), state.frame})) {
            // grad = buffer [/ N] from a hand-written accumulator.
            emit(state, EventKind::GradDivide, call, call->getBeginLoc());
            state.events.back().factors = factors;
            state.events.back().event.overwritesGradient = true;
            state.events.back().event.buffer = source;
            (void)overwrites;
          } else if (!factors.empty()) {
            // grad = grad / N.
            emit(state, EventKind::GradDivide, call, call->getBeginLoc());
            state.events.back().factors = factors;
          }
          return;
        }
      }
    }

    follow(call, state);
  }

  /// `acc += p.grad()`, `acc.add_(p.grad())`, `acc = acc + p.grad()` with acc
  /// a tensor that is not the gradient itself: a hand-written gradient buffer.
  bool recordBufferAdd(const CallExpr *call, WalkState &state) {
    const Expr *target = nullptr, *added = nullptr;
    if (auto *op = dyn_cast<CXXOperatorCallExpr>(call)) {
      if (op->getNumArgs() != 2)
        return false;
      if (op->getOperator() == OO_PlusEqual) {
        target = op->getArg(0);
        added = op->getArg(1);
      } else if (op->getOperator() == OO_Equal) {
        // acc = acc + g, acc = torch::add(acc, g)
        const Expr *value = stripImplicit(op->getArg(1));
        const ValueDecl *lhs = containerOf(op->getArg(0));
        auto *sum = dyn_cast<CallExpr>(value);
        bool adds = false;
        if (auto *plus = dyn_cast_or_null<CXXOperatorCallExpr>(sum))
          adds = plus->getOperator() == OO_Plus;
        else if (sum && !isa<CXXMemberCallExpr>(sum))
          if (const FunctionDecl *callee = sum->getDirectCallee())
            adds = callee->getIdentifier() && callee->getName() == "add";
        // torch::add's third argument, alpha, has a default.
        if (!adds || sum->getNumArgs() < 2 ||
            (sum->getNumArgs() > 2 && !isa<CXXDefaultArgExpr>(sum->getArg(2))) || !lhs)
          return false;
        for (unsigned side = 0; side < 2 && !added; ++side)
          if (containerOf(sum->getArg(side)) == lhs)
            added = sum->getArg(1 - side);
        target = op->getArg(0);
      }
    } else if (auto *member = dyn_cast<CXXMemberCallExpr>(call)) {
      const FunctionDecl *callee = member->getDirectCallee();
      if (callee && callee->getIdentifier() && callee->getName() == "add_" &&
          member->getNumArgs() >= 1) {
        target = member->getImplicitObjectArgument();
        added = member->getArg(0);
      }
    }
    if (!target || !added || isGradientItself(target, facts.options()) ||
        gradientCallIn(target, facts.options()) || !facts.carriesGradient({added, state.frame}))
      return false;
    const ValueDecl *buffer = containerOf(target);
    if (!buffer)
      return false;
    emit(state, EventKind::GradBufferAdd, call, call->getBeginLoc());
    state.events.back().event.buffer = buffer;
    state.events.back().event.gradientRead = gradientCallIn(added, facts.options());
    collectScaling(facts, {added, state.frame}, state.events.back().factors); // acc += g / N
    return true;
  }

  /// `t.register_hook([n](torch::Tensor g) { return g / n; })`: the lambda's
  /// divisions scale the gradient of every backward() that flows through t.
  bool recordGradientHook(const CallExpr *call, WalkState &state) {
    auto *member = dyn_cast<CXXMemberCallExpr>(call);
    const FunctionDecl *callee = call->getDirectCallee();
    if (!member || !callee || !callee->getIdentifier() || callee->getName() != "register_hook" ||
        call->getNumArgs() != 1 ||
        !isOrDerivesFrom(member->getImplicitObjectArgument()->getType()->getAsCXXRecordDecl(),
                         "at::TensorBase"))
      return false;
    const Expr *hook = stripImplicit(call->getArg(0));
    if (auto *ref = dyn_cast<DeclRefExpr>(hook))
      if (auto *var = dyn_cast<VarDecl>(ref->getDecl()); var && var->getInit())
        hook = stripImplicit(var->getInit());
    auto *lambda = dyn_cast<LambdaExpr>(hook);
    if (!lambda || !lambda->getCallOperator() || lambda->getCallOperator()->getNumParams() != 1)
      return true;
    const ParmVarDecl *gradient = lambda->getCallOperator()->getParamDecl(0);
    for (const Expr *returned : returnedValues(lambda->getBody())) {
      std::vector<RawFactor> factors;
      collectScaling(facts, {returned, state.frame}, factors);
      // Only a hook that returns the incoming gradient, divided.
      if (!refersTo(returned, gradient))
        continue;
      state.hookFactors.insert(state.hookFactors.end(), factors.begin(), factors.end());
    }
    return true;
  }

  /// The hand-written buffer (one a GradBufferAdd of this scope fills) that
  /// `value` reads, or null.
  const ValueDecl *readBuffer(const Expr *value, WalkState &state) {
    const ValueDecl *decl = containerOf(value);
    if (!decl) {
      // acc / N, acc[k] * scale
      const Expr *stripped = value ? stripCasts(value) : nullptr;
      if (auto *op = dyn_cast_or_null<CXXOperatorCallExpr>(stripped); op && op->getNumArgs() == 2)
        decl = containerOf(op->getArg(0));
      else if (auto *binary = dyn_cast_or_null<BinaryOperator>(stripped))
        decl = containerOf(binary->getLHS());
      else if (auto *member = dyn_cast_or_null<CXXMemberCallExpr>(stripped))
        decl = containerOf(member->getImplicitObjectArgument()); // acc.div(N), acc.to(dtype)
    }
    if (!decl)
      return nullptr;
    for (const RawEvent &raw : state.events)
      if (raw.event.kind == EventKind::GradBufferAdd && raw.event.buffer == decl)
        return decl;
    return nullptr;
  }

  /// A communicator of the translation unit (`comm.all_reduce(p.grad())`):
  /// its body says how it reduces (a SUM all-reduce, then a division by the
  /// world size). When the body has an all-reduce on the gradients of its
  /// own, that one stands for the call; otherwise the call takes the reduce
  /// operation of the collectives in its body (on a buffer built from its argument).
  void followCommunicator(const CallExpr *call, WalkState &state) {
    size_t named = state.events.size() - 1;
    follow(call, state);
    for (size_t i = named + 1; i < state.events.size(); ++i)
      if (state.events[i].event.kind == EventKind::AllReduce) {
        state.events.erase(state.events.begin() + static_cast<std::ptrdiff_t>(named));
        return;
      }
    // The body is read with its parameters bound to this call's arguments
    // (`all_reduce(g, Op::Sum)` picks the SUM branch of its op selection).
    if (const FunctionDecl *body = inlinableCallee(call, facts.context().getSourceManager()))
      if (std::optional<ReduceOpKind> op =
              collectiveOp(body->getBody(), facts.pushFrame(body, call, state.frame)))
        state.events[named].event.reduceOp = *op;
  }

  /// The reduce operation of the all-reduce calls in `stmt`, if it has any.
  std::optional<ReduceOpKind> collectiveOp(const Stmt *stmt, const SubstFrame *frame) {
    if (!stmt || isa<LambdaExpr>(stmt))
      return std::nullopt;
    std::optional<ReduceOpKind> op;
    if (auto *call = dyn_cast<CallExpr>(stmt)) {
      ApiCallInfo info = classifyCall(call, facts.options());
      if (info.kind == ApiKind::ProcessGroupAllReduce || info.kind == ApiKind::NamedAllReduce)
        op = reduceOpOf(facts, call, info, frame);
    }
    for (const Stmt *child : stmt->children())
      if (std::optional<ReduceOpKind> inner = collectiveOp(child, frame))
        if (!op || *inner == ReduceOpKind::Average)
          op = inner;
    return op;
  }

  /// A call whose code the walk cannot see: a user function without a body
  /// here, a function pointer, a std::function with unknown targets. Library
  /// functions (LibTorch, the standard library) are known not to train.
  bool isOpaque(const CallExpr *call) {
    const SourceManager &sm = facts.context().getSourceManager();
    const FunctionDecl *direct = call->getDirectCallee();
    if (!direct)
      return !isa<CXXPseudoDestructorExpr>(call->getCallee()->IgnoreParenImpCasts());
    if (auto *method = dyn_cast<CXXMethodDecl>(direct))
      if (method->getOverloadedOperator() == OO_Call && method->getParent()->getName() == "function")
        return true;
    if (!isUserCode(sm, direct->getLocation()) || direct->isDefined())
      return false;
    // A module's forward() computes; a function that sees nothing but numbers
    // and raw memory (`micro_batch(i, n)`, a C library's
    // `MPI_Allreduce(buf.data_ptr(), ...)`) cannot reach a model or an optimizer;
    // the memory it is handed is the caller's to model.
    if (isa<CXXMemberCallExpr>(call))
      return !(direct->getIdentifier() && direct->getName() == "forward");
    for (const Expr *arg : call->arguments()) {
      QualType type = arg->getType().getNonReferenceType();
      while (type->isPointerType())
        type = type->getPointeeType();
      if (!type->isArithmeticType() && !type->isEnumeralType() && !type->isVoidType())
        return true;
    }
    return false;
  }

  /// A virtual method declared without a body (pure, or defined elsewhere)
  /// that one class of the translation unit overrides: that override runs.
  const FunctionDecl *overrideOfUndefined(const CallExpr *call) const {
    auto *method = dyn_cast_or_null<CXXMethodDecl>(call->getDirectCallee());
    if (!method || !method->isVirtual() || method->isDefined())
      return nullptr;
    const CXXMethodDecl *overrider = facts.soleOverrider(method);
    return overrider ? inlinableDefinition(overrider, facts.context().getSourceManager())
                     : nullptr;
  }

  /// Inside `if (!p.grad().defined())`: the gradient written there was
  /// undefined, so the write does not discard one.
  bool onlyWhenUndefined(const WalkState &state) const {
    for (const Guard &guard : state.guards) {
      const Expr *condition = stripCasts(guard.condition);
      bool wantsDefined = !guard.negated; // the code runs when the condition is this
      if (auto *unary = dyn_cast<UnaryOperator>(condition); unary && unary->getOpcode() == UO_LNot) {
        condition = stripCasts(unary->getSubExpr());
        wantsDefined = !wantsDefined;
      }
      auto *call = dyn_cast<CXXMemberCallExpr>(condition);
      const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
      if (wantsDefined || !callee || !callee->getIdentifier() || callee->getName() != "defined")
        continue;
      const Expr *tensor = stripCasts(call->getImplicitObjectArgument());
      auto *access = dyn_cast<CallExpr>(tensor);
      if ((access && classifyCall(access, facts.options()).kind == ApiKind::GradAccess) ||
          facts.readsGradient({tensor, guard.frame}))
        return true;
    }
    return false;
  }

  /// Follows a call into a function of the translation unit.
  void follow(const CallExpr *call, WalkState &state) {
    const FunctionDecl *callee = inlinableCallee(call, facts.context().getSourceManager());
    if (!callee)
      callee = callbackLambda(call, state.frame, facts); // on_step(), a std::function
    if (!callee)
      callee = overrideOfUndefined(call);
    if (!callee && isOpaque(call))
      state.opaqueCalls.push_back(call);
    if (!callee || state.calls.size() >= kMaxInlineDepth ||
        std::find(state.active.begin(), state.active.end(), callee) != state.active.end())
      return;
    const SubstFrame *saved = state.frame;
    state.frame = facts.pushFrame(callee, call, saved);
    state.calls.push_back({call, callee});
    state.active.push_back(callee);
    walk(callee->getBody(), state);
    state.active.pop_back();
    state.calls.pop_back();
    state.frame = saved;
  }

  /// The increments met before `condition` reads its counter: before the
  /// declaration of a flag it names, else before the condition itself.
  const std::vector<const ValueDecl *> &incrementsReadBy(const Expr *condition,
                                                         const WalkState &state) {
    const Expr *read = condition ? condition->IgnoreParenImpCasts() : nullptr;
    if (auto *negation = dyn_cast_or_null<UnaryOperator>(read))
      if (negation->getOpcode() == UO_LNot)
        read = negation->getSubExpr()->IgnoreParenImpCasts();
    if (auto *ref = dyn_cast_or_null<DeclRefExpr>(read))
      if (auto *var = dyn_cast<VarDecl>(ref->getDecl())) {
        auto found = state.incrementedAtDeclaration.find(var);
        if (found != state.incrementedAtDeclaration.end())
          return found->second;
      }
    return state.incremented;
  }

  /// The statement whose rest `jump` skips: the function it returns from, the
  /// loop body it continues or breaks; null when the walk does not show it.
  static const Stmt *skippedByJump(const Stmt *jump, const WalkState &state) {
    if (!jump)
      return nullptr;
    if (isa<ReturnStmt>(jump))
      return state.active.empty() ? nullptr : state.active.back()->getBody();
    if (!state.loops.empty())
      return loopBody(state.loops.back());
    // The scope walked is the loop's own body: the rest of the micro-batch.
    return state.active.empty() ? nullptr : state.active.front()->getBody();
  }

  void walkGuarded(const Stmt *stmt, const Expr *condition, bool negated, WalkState &state) {
    state.guards.push_back(
        {condition, state.frame, negated, false, incrementsReadBy(condition, state)});
    walk(stmt, state);
    state.guards.pop_back();
  }

  void walkCondition(const Expr *condition, WalkState &state) {
    ++state.conditionDepth;
    walk(condition, state);
    --state.conditionDepth;
  }

  /// The variable or field `++c`, `c++` or `c += 1` advances, or null.
  const ValueDecl *incrementedByOne(const Stmt *stmt, const WalkState &state) {
    const Expr *target = nullptr;
    if (auto *unary = dyn_cast<UnaryOperator>(stmt)) {
      if (unary->isIncrementOp())
        target = unary->getSubExpr();
    } else if (auto *compound = dyn_cast<CompoundAssignOperator>(stmt)) {
      if (compound->getOpcode() == BO_AddAssign &&
          facts.constantInt({compound->getRHS(), state.frame}) == 1)
        target = compound->getLHS();
    } else if (auto *assign = dyn_cast<BinaryOperator>(stmt);
               assign && assign->getOpcode() == BO_Assign) {
      // `c = (c + 1) % N`: a counter that wraps at N.
      const ValueDecl *written = facts.referencedDecl({assign->getLHS(), state.frame});
      if (written && wrappedIncrementModulus(assign->getRHS(), written, facts))
        target = assign->getLHS();
    }
    return target ? facts.referencedDecl({target, state.frame}) : nullptr;
  }

  /// `if (flag)` / `if (!flag)` in a helper whose flag parameter is a
  /// constant in this call (`void step(bool zero_grad = false)` called as
  /// step()), or on a member flag every object of the file is built with
  /// (`if (!accepts_kwargs_)`): only one branch runs on this path.
  std::optional<bool> parameterFlag(const Expr *cond, const WalkState &state) const {
    bool negated = false;
    const Expr *read = stripCasts(cond);
    if (auto *unary = dyn_cast<UnaryOperator>(read); unary && unary->getOpcode() == UO_LNot) {
      negated = true;
      read = stripCasts(unary->getSubExpr());
    }
    auto *ref = dyn_cast<DeclRefExpr>(read);
    auto *member = dyn_cast<MemberExpr>(read);
    if (!(ref && isa<ParmVarDecl>(ref->getDecl())) &&
        !(member && isa<FieldDecl>(member->getMemberDecl()) &&
          isa<CXXThisExpr>(member->getBase()->IgnoreImpCasts())))
      return std::nullopt;
    std::optional<double> value = facts.constantNumber({read, state.frame});
    if (!value)
      return std::nullopt;
    return (*value != 0) != negated;
  }

  void walk(const Stmt *stmt, WalkState &state) {
    if (!stmt)
      return;
    if (auto *compound = dyn_cast<CompoundStmt>(stmt)) {
      size_t saved = state.guards.size();
      for (const Stmt *child : compound->body()) {
        walk(child, state);
        // if (!boundary) continue;  -> the rest runs only when the condition is false
        if (auto *ifStmt = dyn_cast<IfStmt>(child))
          if (!ifStmt->getElse() && endsWithJump(ifStmt->getThen()))
            state.guards.push_back({ifStmt->getCond(), state.frame, true, true,
                                    incrementsReadBy(ifStmt->getCond(), state)});
      }
      state.guards.resize(saved);
      return;
    }
    if (auto *ifStmt = dyn_cast<IfStmt>(stmt)) {
      walk(ifStmt->getInit(), state);
      if (ifStmt->getConditionVariableDeclStmt())
        walk(ifStmt->getConditionVariableDeclStmt(), state);
      walkCondition(ifStmt->getCond(), state);
      if (std::optional<bool> taken = parameterFlag(ifStmt->getCond(), state)) {
        walk(*taken ? ifStmt->getThen() : ifStmt->getElse(), state);
        return;
      }
      size_t firstInBranch = state.events.size();
      walkGuarded(ifStmt->getThen(), ifStmt->getCond(), false, state);
      if (const Stmt *skipped = skippedByJump(endingJump(ifStmt->getThen()), state))
        for (size_t i = firstInBranch; i < state.events.size(); ++i)
          if (!state.events[i].event.skipsRestOf)
            state.events[i].event.skipsRestOf = skipped;
      walkGuarded(ifStmt->getElse(), ifStmt->getCond(), true, state);
      return;
    }
    if (auto *conditional = dyn_cast<ConditionalOperator>(stmt)) {
      walkCondition(conditional->getCond(), state);
      walkGuarded(conditional->getTrueExpr(), conditional->getCond(), false, state);
      walkGuarded(conditional->getFalseExpr(), conditional->getCond(), true, state);
      return;
    }
    if (isLoop(stmt)) {
      if (auto *forStmt = dyn_cast<ForStmt>(stmt))
        walk(forStmt->getInit(), state);
      if (auto *range = dyn_cast<CXXForRangeStmt>(stmt)) {
        walk(range->getInit(), state);
        walk(range->getRangeInit(), state);
      }
      state.loops.push_back(stmt);
      walk(loopBody(stmt), state);
      state.loops.pop_back();
      return;
    }
    if (isa<LambdaExpr>(stmt))
      return; // its body runs when it is called
    if (state.conditionDepth == 0)
      if (const ValueDecl *counter = incrementedByOne(stmt, state))
        state.incremented.push_back(counter);
    if (auto *declaration = dyn_cast<DeclStmt>(stmt)) {
      for (const Stmt *child : stmt->children())
        walk(child, state);
      for (const Decl *decl : declaration->decls())
        if (auto *var = dyn_cast<VarDecl>(decl))
          state.incrementedAtDeclaration[var] = state.incremented;
      return;
    }
    if (auto *call = dyn_cast<CallExpr>(stmt)) {
      for (const Stmt *child : call->children())
        walk(child, state);
      handleCall(call, state);
      return;
    }
    for (const Stmt *child : stmt->children())
      walk(child, state);
  }
};

} // namespace

const FunctionDecl *inlinableCallee(const CallExpr *call, const SourceManager &sm) {
  const FunctionDecl *callee = call->getDirectCallee();
  if (!callee) {
    // A call inside a template to a single function template of the TU.
    if (auto *lookup = dyn_cast<UnresolvedLookupExpr>(call->getCallee()->IgnoreParenImpCasts()))
      if (lookup->getNumDecls() == 1) {
        const NamedDecl *decl = *lookup->decls_begin();
        if (auto *tmpl = dyn_cast<FunctionTemplateDecl>(decl))
          callee = tmpl->getTemplatedDecl();
        else
          callee = dyn_cast<FunctionDecl>(decl);
      }
  }
  if (!callee) {
    // A lambda called inside a template: the call is dependent, the lambda is not.
    if (auto *ref = dyn_cast<DeclRefExpr>(call->getCallee()->IgnoreParenImpCasts()))
      if (auto *var = dyn_cast<VarDecl>(ref->getDecl()))
        if (var->getInit())
          if (auto *lambda = dyn_cast<LambdaExpr>(stripImplicit(var->getInit())))
            callee = lambda->getCallOperator();
  }
  if (!callee)
    return nullptr;
  return inlinableDefinition(callee, sm);
}

const FunctionDecl *inlinableDefinition(const FunctionDecl *callee, const SourceManager &sm) {
  const FunctionDecl *definition = callee->getDefinition();
  if (!definition) {
    // The pattern of a not-yet-instantiated template member.
    if (const FunctionDecl *pattern = callee->getTemplateInstantiationPattern())
      definition = pattern->getDefinition();
  }
  if (!definition || !definition->hasBody() || !definition->getBody())
    return nullptr;
  if (!isUserCode(sm, definition->getLocation()))
    return nullptr;
  return definition;
}

void walkEvents(const Stmt *stmt, WalkState &state, ValueFacts &facts) {
  EventWalker{facts}.walk(stmt, state);
  for (RawEvent &raw : state.events)
    if (raw.event.kind == EventKind::Backward)
      raw.factors.insert(raw.factors.end(), state.hookFactors.begin(), state.hookFactors.end());
}

} // namespace gradlint::builder
