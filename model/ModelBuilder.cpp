#include "model/ModelBuilder.h"
#include "model/ApiCalls.h"
#include "model/GuardPatterns.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <set>

using namespace clang;

namespace gradlint {

bool isUserCode(const SourceManager &sm, SourceLocation loc) {
  if (loc.isInvalid())
    return false;
  loc = sm.getExpansionLoc(loc);
  if (sm.isInSystemHeader(loc))
    return false;
  if (sm.isInMainFile(loc))
    return true;
  llvm::StringRef path = sm.getFilename(loc);
  if (path.empty())
    return false;
  // LibTorch headers reached through -I (not -isystem) are still not the user's.
  static const char *const libraryDirs[] = {"/torch/csrc/", "/ATen/", "/c10/", "/c10d/",
                                            "/caffe2/", "/pybind11/", "/gloo/"};
  for (const char *dir : libraryDirs)
    if (path.contains(dir))
      return false;
  return true;
}

namespace {

constexpr unsigned kMaxInlineDepth = 10;

/// A condition on the path from the scope to an event.
struct Guard {
  const Expr *condition = nullptr;
  const SubstFrame *frame = nullptr;
  bool negated = false;
  bool earlyExit = false; ///< from `if (condition) continue;` (or return/break)
};

/// A factor found on the way to backward() or on a gradient division, kept
/// with its frame until N and W are known.
struct RawFactor {
  const Expr *site = nullptr;
  ResolvedExpr divisor;
  SourceLocation loc;
};

struct RawEvent {
  TrainingEvent event;
  std::vector<Guard> guards;
  std::vector<const Stmt *> loopPath; ///< loops entered inside the scope, outermost first
  std::vector<RawFactor> factors;
};

struct WalkState {
  std::vector<Guard> guards;
  std::vector<const Stmt *> loops;
  std::vector<CallFrame> calls;
  std::vector<const FunctionDecl *> active;
  const SubstFrame *frame = nullptr;
  std::vector<RawEvent> events;
  unsigned nextOrder = 0;
};

bool endsWithJump(const Stmt *stmt) {
  if (!stmt)
    return false;
  if (isa<ContinueStmt>(stmt) || isa<ReturnStmt>(stmt) || isa<BreakStmt>(stmt))
    return true;
  if (auto *compound = dyn_cast<CompoundStmt>(stmt))
    return !compound->body_empty() && endsWithJump(compound->body_back());
  return false;
}

bool isLoop(const Stmt *stmt) {
  return isa<ForStmt>(stmt) || isa<WhileStmt>(stmt) || isa<DoStmt>(stmt) ||
         isa<CXXForRangeStmt>(stmt);
}

const Stmt *loopBody(const Stmt *loop) {
  if (auto *s = dyn_cast<ForStmt>(loop))
    return s->getBody();
  if (auto *s = dyn_cast<WhileStmt>(loop))
    return s->getBody();
  if (auto *s = dyn_cast<DoStmt>(loop))
    return s->getBody();
  if (auto *s = dyn_cast<CXXForRangeStmt>(loop))
    return s->getBody();
  return nullptr;
}

} // namespace

struct ModelBuilder::Impl {
  ASTContext &context;
  ValueFacts facts;
  bool originsCollected = false;

  Impl(ASTContext &ctx, const ModelOptions &options) : context(ctx), facts(ctx, options) {}

  const SourceManager &sm() const { return context.getSourceManager(); }

  void ensureOrigins() {
    if (originsCollected)
      return;
    originsCollected = true;
    // Namespace blocks of LibTorch and the standard library are skipped whole:
    // walking them would deserialize every header declaration from a PCH.
    for (Decl *decl : context.getTranslationUnitDecl()->decls())
      if (isUserCode(sm(), decl->getLocation()))
        facts.collectOrigins(decl);
  }

  // ---- walking a scope --------------------------------------------------

  const FunctionDecl *inlinableCallee(const CallExpr *call) const {
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
    const FunctionDecl *definition = callee->getDefinition();
    if (!definition) {
      // The pattern of a not-yet-instantiated template member.
      if (const FunctionDecl *pattern = callee->getTemplateInstantiationPattern())
        definition = pattern->getDefinition();
    }
    if (!definition || !definition->hasBody() || !definition->getBody())
      return nullptr;
    if (!isUserCode(sm(), definition->getLocation()))
      return nullptr;
    return definition;
  }

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

  /// `1.0 / N` (or a variable initialised to it) -> N.
  const Expr *reciprocalOf(const Expr *expr, const SubstFrame *frame, unsigned depth = 0) {
    if (!expr || depth > 6)
      return nullptr;
    ResolvedExpr resolved = facts.resolve({expr, frame});
    const Expr *e = stripCasts(resolved.expr);
    if (auto *binary = dyn_cast<BinaryOperator>(e))
      if (binary->getOpcode() == BO_Div)
        if (auto one = facts.constantNumber({binary->getLHS(), resolved.frame}))
          if (*one == 1.0)
            return binary->getRHS();
    if (auto *ref = dyn_cast<DeclRefExpr>(e))
      if (auto *var = dyn_cast<VarDecl>(ref->getDecl()))
        if (var->getInit() && !isa<ParmVarDecl>(var))
          return reciprocalOf(var->getInit(), nullptr, depth + 1);
    return nullptr;
  }

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

  void addFactor(std::vector<RawFactor> &out, const Expr *site, const Expr *divisor,
                 const SubstFrame *frame) {
    out.push_back({site, {divisor, frame}, operatorLoc(site)});
  }

  /// Collects every division applied to `value` on its way to backward().
  void collectScaling(ResolvedExpr value, std::vector<RawFactor> &out,
                      std::set<const ValueDecl *> &visited, unsigned depth) {
    if (!value.expr || depth > 16)
      return;
    value = facts.resolve(value);
    const SubstFrame *frame = value.frame;
    const Expr *expr = stripImplicit(value.expr);
    if (auto *binary = dyn_cast<BinaryOperator>(expr)) {
      if (binary->getOpcode() == BO_Div) {
        addFactor(out, binary, binary->getRHS(), frame);
        collectScaling({binary->getLHS(), frame}, out, visited, depth + 1);
      } else if (binary->getOpcode() == BO_Mul) {
        for (int side = 0; side < 2; ++side) {
          const Expr *factor = side == 0 ? binary->getLHS() : binary->getRHS();
          const Expr *other = side == 0 ? binary->getRHS() : binary->getLHS();
          if (const Expr *divisor = reciprocalOf(factor, frame)) {
            addFactor(out, binary, divisor, frame);
            collectScaling({other, frame}, out, visited, depth + 1);
            return;
          }
        }
        collectScaling({binary->getLHS(), frame}, out, visited, depth + 1);
        collectScaling({binary->getRHS(), frame}, out, visited, depth + 1);
      } else if (binary->getOpcode() == BO_Comma) {
        collectScaling({binary->getRHS(), frame}, out, visited, depth + 1);
      }
      return;
    }
    if (auto *conditional = dyn_cast<ConditionalOperator>(expr)) {
      collectScaling({conditional->getTrueExpr(), frame}, out, visited, depth + 1);
      collectScaling({conditional->getFalseExpr(), frame}, out, visited, depth + 1);
      return;
    }
    // torch::autograd::backward({loss / N}): the tensors of a braced list.
    if (auto *list = dyn_cast<InitListExpr>(expr)) {
      for (const Expr *element : list->inits())
        collectScaling({element, frame}, out, visited, depth + 1);
      return;
    }
    if (auto *std = dyn_cast<CXXStdInitializerListExpr>(expr)) {
      collectScaling({std->getSubExpr(), frame}, out, visited, depth + 1);
      return;
    }
    if (auto *construct = dyn_cast<CXXConstructExpr>(expr)) {
      for (const Expr *arg : construct->arguments())
        collectScaling({arg, frame}, out, visited, depth + 1);
      return;
    }
    if (auto *call = dyn_cast<CallExpr>(expr)) {
      ApiCallInfo info = classifyCall(call, facts.options());
      switch (info.kind) {
      case ApiKind::TensorDivide:
      case ApiKind::TensorScaleInPlace:
      case ApiKind::TensorMultiply:
        if (info.operand) {
          bool divides = info.kind == ApiKind::TensorDivide ||
                         (info.kind == ApiKind::TensorScaleInPlace &&
                          (info.name == "div_" || info.name == "true_divide_" ||
                           (isa<CXXOperatorCallExpr>(call) &&
                            cast<CXXOperatorCallExpr>(call)->getOperator() == OO_SlashEqual)));
          if (divides)
            addFactor(out, call, info.operand, frame);
          else if (const Expr *divisor = reciprocalOf(info.operand, frame))
            addFactor(out, call, divisor, frame);
        }
        if (info.object)
          collectScaling({info.object, frame}, out, visited, depth + 1);
        return;
      default:
        break;
      }
      // A Tensor method that keeps the value: loss.mean(), loss.to(...).
      if (info.object && isOrDerivesFrom(info.object->getType()->getAsCXXRecordDecl(),
                                         "at::TensorBase")) {
        collectScaling({info.object, frame}, out, visited, depth + 1);
        return;
      }
      // AMP-style scalers: scaler.scale(loss).
      if (info.name == "scale" && call->getNumArgs() == 1) {
        collectScaling({call->getArg(0), frame}, out, visited, depth + 1);
        return;
      }
      // A helper of the translation unit that returns the loss.
      if (const FunctionDecl *callee = inlinableCallee(call)) {
        const SubstFrame *inner = facts.pushFrame(callee, call, frame);
        struct Returns : RecursiveASTVisitor<Returns> {
          std::vector<const Expr *> values;
          bool TraverseLambdaExpr(LambdaExpr *) { return true; }
          bool VisitReturnStmt(ReturnStmt *ret) {
            if (ret->getRetValue())
              values.push_back(ret->getRetValue());
            return true;
          }
        } returns;
        returns.TraverseStmt(const_cast<Stmt *>(callee->getBody()));
        for (const Expr *returned : returns.values)
          collectScaling({returned, inner}, out, visited, depth + 1);
      }
      return;
    }
    if (const ValueDecl *decl = facts.referencedDecl({expr, frame})) {
      if (!visited.insert(decl).second)
        return;
      for (const ValueOrigin &origin : facts.originsOf(decl)) {
        switch (origin.kind) {
        case ValueOrigin::Init:
        case ValueOrigin::Assign:
          collectScaling({origin.value, isa<FieldDecl>(decl) ? nullptr : frame}, out, visited,
                         depth + 1);
          break;
        case ValueOrigin::CompoundDivide:
          addFactor(out, origin.site, origin.value, frame);
          break;
        case ValueOrigin::CompoundMultiply:
          if (const Expr *divisor = reciprocalOf(origin.value, frame))
            addFactor(out, origin.site, divisor, frame);
          break;
        case ValueOrigin::InPlaceCall:
          if (auto *call = dyn_cast<CallExpr>(origin.value)) {
            ApiCallInfo info = classifyCall(call, facts.options());
            if (info.kind == ApiKind::TensorScaleInPlace && info.operand) {
              if (info.name == "div_" || info.name == "true_divide_")
                addFactor(out, call, info.operand, frame);
              else if (const Expr *divisor = reciprocalOf(info.operand, frame))
                addFactor(out, call, divisor, frame);
            }
          }
          break;
        case ValueOrigin::OutParameter:
          break;
        }
      }
    }
  }

  /// Calls `visit` for each field of `record` and of its bases.
  static void forEachField(const CXXRecordDecl *record,
                           const std::function<void(const FieldDecl *)> &visit) {
    if (!record || !record->hasDefinition())
      return;
    for (const FieldDecl *field : record->fields())
      visit(field);
    for (const CXXBaseSpecifier &base : record->bases())
      forEachField(base.getType()->getAsCXXRecordDecl(), visit);
  }

  static bool namesAverage(llvm::StringRef name) {
    std::string lower = name.lower();
    return lower.find("avg") != std::string::npos || lower.find("mean") != std::string::npos ||
           lower.find("average") != std::string::npos;
  }

  /// Reads the reduce operation of an all-reduce call: an enumerator such as
  /// c10d::ReduceOp::AVG in its arguments or in the options variable's fields
  /// (`opts.reduceOp = c10d::ReduceOp::AVG;`), or a method named like
  /// all_reduce_mean. c10d's default is SUM.
  ReduceOpKind reduceOpOf(const CallExpr *call, const ApiCallInfo &info, const SubstFrame *frame) {
    bool sawSum = false, sawAverage = false;
    std::function<void(const Expr *, const SubstFrame *, unsigned)> scan =
        [&](const Expr *expr, const SubstFrame *in, unsigned depth) {
          if (!expr || depth > 8)
            return;
          ResolvedExpr resolved = facts.resolve({expr, in});
          expr = stripCasts(resolved.expr);
          if (auto *ref = dyn_cast<DeclRefExpr>(expr)) {
            if (auto *enumerator = dyn_cast<EnumConstantDecl>(ref->getDecl())) {
              sawAverage = sawAverage || namesAverage(enumerator->getName());
              sawSum = sawSum || enumerator->getName().lower().find("sum") != std::string::npos;
              return;
            }
            auto *var = dyn_cast<VarDecl>(ref->getDecl());
            if (!var)
              return;
            forEachField(var->getType()->getAsCXXRecordDecl(), [&](const FieldDecl *field) {
              for (const ValueOrigin &origin : facts.originsOf(field)) {
                const Expr *target = nullptr;
                if (auto *assign = dyn_cast<BinaryOperator>(origin.site))
                  target = assign->getLHS();
                else if (auto *op = dyn_cast<CXXOperatorCallExpr>(origin.site))
                  target = op->getArg(0);
                auto *member = dyn_cast_or_null<MemberExpr>(target ? stripImplicit(target) : nullptr);
                if (member && facts.referencedDecl({member->getBase(), nullptr}) == var)
                  scan(origin.value, nullptr, depth + 1);
              }
            });
            if (var->getInit())
              scan(var->getInit(), nullptr, depth + 1);
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

  void handleCall(const CallExpr *call, WalkState &state) {
    ApiCallInfo info = classifyCall(call, facts.options());
    const Expr *object = info.object;
    switch (info.kind) {
    case ApiKind::Backward: {
      emit(state, EventKind::Backward, call, call->getBeginLoc());
      const Expr *loss = object ? object : (call->getNumArgs() ? call->getArg(0) : nullptr);
      std::set<const ValueDecl *> visited;
      collectScaling({loss, state.frame}, state.events.back().factors, visited, 0);
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
      if (object && facts.readsGradient({object, state.frame}))
        emit(state, EventKind::GradReset, call, call->getBeginLoc());
      return;
    case ApiKind::TensorScaleInPlace:
      if (object && info.operand && facts.readsGradient({object, state.frame})) {
        bool divides = info.name == "div_" || info.name == "true_divide_" ||
                       (isa<CXXOperatorCallExpr>(call) &&
                        cast<CXXOperatorCallExpr>(call)->getOperator() == OO_SlashEqual);
        const Expr *divisor = divides ? info.operand : reciprocalOf(info.operand, state.frame);
        if (divisor) {
          emit(state, EventKind::GradDivide, call, call->getBeginLoc());
          addFactor(state.events.back().factors, call, divisor, state.frame);
        }
      }
      return;
    case ApiKind::ClipGradNorm:
    case ApiKind::ClipGradValue:
      emit(state, EventKind::Clip, call, call->getBeginLoc());
      state.events.back().event.clipByValue = info.kind == ApiKind::ClipGradValue;
      if (call->getNumArgs() >= 2) {
        std::optional<double> limit = facts.constantNumber({call->getArg(1), nullptr});
        if (limit && *limit > 0)
          state.events.back().event.clipLimit = *limit;
      }
      return;
    case ApiKind::ProcessGroupAllReduce:
    case ApiKind::NamedAllReduce: {
      // A helper the configuration names syncs the gradients whatever its arguments.
      bool onGradients = info.configured;
      for (const Expr *arg : call->arguments())
        onGradients = onGradients || facts.readsGradient({arg, state.frame});
      if (!onGradients)
        break; // a user function named like allreduce may still be followed below
      emit(state, EventKind::AllReduce, call, call->getBeginLoc());
      state.events.back().event.reduceOp = reduceOpOf(call, info, state.frame);
      return;
    }
    case ApiKind::SchedulerStep:
      emit(state, EventKind::SchedulerStep, call, call->getBeginLoc());
      return;
    case ApiKind::LossFunction:
      emit(state, EventKind::LossComputation, call, call->getBeginLoc());
      return;
    default:
      break;
    }

    // grad = torch::Tensor() (a reset) or grad = grad / N (a division).
    if (auto *op = dyn_cast<CXXOperatorCallExpr>(call)) {
      if (op->getOperator() == OO_Equal && op->getNumArgs() == 2) {
        const Expr *lhs = stripImplicit(op->getArg(0));
        auto *lhsCall = dyn_cast<CallExpr>(lhs);
        if (lhsCall && classifyCall(lhsCall, facts.options()).kind == ApiKind::GradAccess) {
          std::vector<RawFactor> factors;
          std::set<const ValueDecl *> visited;
          collectScaling({op->getArg(1), state.frame}, factors, visited, 0);
          if (clearsGradient(op->getArg(1))) {
            emit(state, EventKind::GradReset, call, call->getBeginLoc());
          } else if (bool overwrites = !facts.readsGradient({op->getArg(1), state.frame});
                     overwrites || !factors.empty()) {
            // grad = grad / N, or grad = buffer [/ N] from a hand-written accumulator.
            emit(state, EventKind::GradDivide, call, call->getBeginLoc());
            state.events.back().factors = factors;
            state.events.back().event.overwritesGradient = overwrites;
          }
          return;
        }
      }
    }

    // Follow calls into functions of the translation unit.
    const FunctionDecl *callee = inlinableCallee(call);
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

  /// `torch::Tensor()`, `{}`, `0` or `torch::zeros_like(p)`: assigning it
  /// to a gradient resets it. Any other value overwrites it.
  static bool clearsGradient(const Expr *value) {
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

  void walkGuarded(const Stmt *stmt, const Expr *condition, bool negated, WalkState &state) {
    state.guards.push_back({condition, state.frame, negated});
    walk(stmt, state);
    state.guards.pop_back();
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
            state.guards.push_back({ifStmt->getCond(), state.frame, true, true});
      }
      state.guards.resize(saved);
      return;
    }
    if (auto *ifStmt = dyn_cast<IfStmt>(stmt)) {
      walk(ifStmt->getInit(), state);
      if (ifStmt->getConditionVariableDeclStmt())
        walk(ifStmt->getConditionVariableDeclStmt(), state);
      walk(ifStmt->getCond(), state);
      walkGuarded(ifStmt->getThen(), ifStmt->getCond(), false, state);
      walkGuarded(ifStmt->getElse(), ifStmt->getCond(), true, state);
      return;
    }
    if (auto *conditional = dyn_cast<ConditionalOperator>(stmt)) {
      walk(conditional->getCond(), state);
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
    if (auto *call = dyn_cast<CallExpr>(stmt)) {
      for (const Stmt *child : call->children())
        walk(child, state);
      handleCall(call, state);
      return;
    }
    for (const Stmt *child : stmt->children())
      walk(child, state);
  }

  // ---- reading a scope --------------------------------------------------

  /// The first loop on the event's path that contains a backward() call.
  static const Stmt *microBatchLoopOf(const RawEvent &raw, const std::set<const Stmt *> &backwardLoops) {
    for (const Stmt *loop : raw.loopPath)
      if (backwardLoops.count(loop))
        return loop;
    return nullptr;
  }

  EventCondition classify(const RawEvent &raw, const WindowPattern &window,
                          bool &unrelated) {
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
      int64_t residue = canonicalResidue(parsed->pattern.residue, steps);
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

  SymbolicValue tripCount(const Stmt *loop) {
    SymbolicValue value;
    if (auto *forStmt = dyn_cast<ForStmt>(loop)) {
      if (auto *cond = dyn_cast_or_null<BinaryOperator>(stripCasts(forStmt->getCond()))) {
        if (cond->getOpcode() == BO_LT || cond->getOpcode() == BO_NE)
          return facts.symbolic({cond->getRHS(), nullptr});
        if (cond->getOpcode() == BO_GT)
          return facts.symbolic({cond->getLHS(), nullptr});
      }
    }
    if (auto *range = dyn_cast<CXXForRangeStmt>(loop)) {
      const Expr *init = range->getRangeInit();
      if (auto *call = dyn_cast<CallExpr>(stripCasts(init))) {
        // torch::chunk(batch, N) / batch.chunk(N) / batch.split(size)
        const FunctionDecl *callee = call->getDirectCallee();
        if (callee && callee->getIdentifier() && callee->getName() == "chunk" &&
            call->getNumArgs() >= 1) {
          const Expr *count =
              isa<CXXMemberCallExpr>(call) ? call->getArg(0)
                                           : (call->getNumArgs() >= 2 ? call->getArg(1) : nullptr);
          if (count)
            return facts.symbolic({count, nullptr});
        }
      }
      value = facts.symbolic({init, nullptr});
      value.constant.reset();
      value.text = value.text.empty() ? "the inner loop's length" : value.text + ".size()";
      return value;
    }
    value.text = "the inner loop's trip count";
    value.loc = loop->getBeginLoc();
    return value;
  }

  /// The smallest part of `divisor` that is the world size: `world` in `N * world`.
  ResolvedExpr worldSizeLeaf(ResolvedExpr divisor) {
    ResolvedExpr resolved = facts.resolve(divisor);
    const Expr *expr = stripCasts(resolved.expr);
    // const int denom = accum * world;  ->  look inside denom's definition.
    if (auto *ref = dyn_cast<DeclRefExpr>(expr))
      if (auto *var = dyn_cast<VarDecl>(ref->getDecl()))
        if (!isa<ParmVarDecl>(var) && var->getInit() && !var->hasGlobalStorage() &&
            isa<BinaryOperator>(stripCasts(var->getInit())))
          return worldSizeLeaf({var->getInit(), nullptr});
    if (isa<BinaryOperator>(expr) || isa<ParenExpr>(expr))
      for (const Stmt *child : expr->children())
        if (auto *childExpr = dyn_cast_or_null<Expr>(child))
          if (facts.isWorldSize({childExpr, resolved.frame}))
            return worldSizeLeaf({childExpr, resolved.frame});
    return resolved;
  }

  void finishFactors(TrainingLoop &loop, std::vector<RawEvent> &raws,
                     const ResolvedExpr &steps) {
    for (RawEvent &raw : raws) {
      for (const RawFactor &factor : raw.factors) {
        ScaleFactor scale;
        scale.site = factor.site;
        scale.divisor = factor.divisor.expr;
        scale.loc = factor.loc;
        scale.isAccumulationSteps = (steps.expr && facts.mentions(factor.divisor, steps)) ||
                                    facts.mentionsAccumulationStepsName(factor.divisor);
        scale.isWorldSize = facts.isWorldSize(factor.divisor);
        if (scale.isWorldSize && !loop.worldSize.known())
          loop.worldSize = facts.symbolic(worldSizeLeaf(factor.divisor));
        raw.event.scaling.push_back(scale);
      }
    }
  }

  /// Events up to a step() that runs on every micro-batch belong to that
  /// (non-accumulating) optimizer, not to the window.
  static void markEveryStepSegments(TrainingLoop &loop) {
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

  std::optional<TrainingLoop> analyseScope(const Stmt *body, const Stmt *loopStmt,
                                           const FunctionDecl *function) {
    ensureOrigins();
    WalkState state;
    if (function)
      state.active.push_back(function);
    walk(body, state);
    std::vector<RawEvent> &raws = state.events;

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
    loop.loc = loopStmt ? loopStmt->getBeginLoc() : (function ? function->getLocation() : SourceLocation());
    std::vector<RawEvent> kept;

    if (!backwards.empty()) {
      // A flat window: the boundary guard sits on step().
      std::optional<WindowPattern> window;
      Guard matched;
      for (RawEvent *step : steps) {
        for (const Guard &guard : step->guards) {
          std::optional<ParsedGuard> parsed =
              parseGuard(guard.condition, guard.frame, guard.negated, facts);
          if (parsed && parsed->holds && parsed->pattern.steps.expr) {
            window = parsed->pattern;
            matched = guard;
            break;
          }
        }
        if (window)
          break;
      }
      ResolvedExpr stepsExpr;
      if (window) {
        AccumulationWindow accumulation;
        accumulation.steps = facts.symbolic(window->steps);
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
          raw->event.condition = classify(*raw, *window, unrelated);
          raw->event.guardedByUnrelatedCondition = unrelated;
        } else {
          raw->event.guardedByUnrelatedCondition = !raw->guards.empty();
        }
        kept.push_back(*raw);
      }
      finishFactors(loop, kept, stepsExpr);
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
      accumulation.steps = tripCount(inner);
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
          raw.event.condition = EventCondition::EveryMicroBatch;
        } else {
          raw.event.condition = raw.event.order < first ? EventCondition::WindowStart
                                                        : EventCondition::Boundary;
        }
        raw.event.guardedByUnrelatedCondition = !raw.guards.empty();
        kept.push_back(raw);
      }
      ResolvedExpr stepsExpr{accumulation.steps.expr, nullptr};
      finishFactors(loop, kept, stepsExpr);
    }

    std::sort(kept.begin(), kept.end(), [](const RawEvent &a, const RawEvent &b) {
      return a.event.order < b.event.order;
    });
    for (RawEvent &raw : kept)
      loop.events.push_back(std::move(raw.event));
    markEveryStepSegments(loop);
    return loop;
  }

  // ---- visiting the translation unit -------------------------------------

  struct Finder : RecursiveASTVisitor<Finder> {
    Impl *impl;
    TrainingLoopModel *model;
    std::vector<const FunctionDecl *> functions;

    bool shouldVisitTemplateInstantiations() const { return false; }
    bool shouldVisitLambdaBody() const { return true; }

    bool TraverseDecl(Decl *decl) {
      if (!decl)
        return true;
      if (!isa<TranslationUnitDecl>(decl) && !isUserCode(impl->sm(), decl->getLocation()))
        return true; // never walk LibTorch or system headers, not even their namespaces
      bool pushed = false;
      if (auto *fn = dyn_cast<FunctionDecl>(decl)) {
        functions.push_back(fn);
        pushed = true;
      }
      bool result = RecursiveASTVisitor<Finder>::TraverseDecl(decl);
      if (pushed)
        functions.pop_back();
      return result;
    }

    const FunctionDecl *current() const { return functions.empty() ? nullptr : functions.back(); }

    bool VisitFunctionDecl(FunctionDecl *fn) {
      if (fn->doesThisDeclarationHaveABody() && fn->getBody())
        if (auto loop = impl->analyseScope(fn->getBody(), nullptr, fn))
          model->loops.push_back(std::move(*loop));
      return true;
    }
    bool VisitLambdaExpr(LambdaExpr *lambda) {
      const CXXMethodDecl *op = lambda->getCallOperator();
      if (op && op->getBody())
        if (auto loop = impl->analyseScope(op->getBody(), nullptr, op))
          model->loops.push_back(std::move(*loop));
      return true;
    }
    bool visitLoop(Stmt *stmt) {
      if (isUserCode(impl->sm(), stmt->getBeginLoc()))
        if (auto loop = impl->analyseScope(loopBody(stmt), stmt, current()))
          model->loops.push_back(std::move(*loop));
      return true;
    }
    bool VisitForStmt(ForStmt *s) { return visitLoop(s); }
    bool VisitWhileStmt(WhileStmt *s) { return visitLoop(s); }
    bool VisitDoStmt(DoStmt *s) { return visitLoop(s); }
    bool VisitCXXForRangeStmt(CXXForRangeStmt *s) { return visitLoop(s); }
  };
};

ModelBuilder::ModelBuilder(ASTContext &context, const ModelOptions &options)
    : impl_(std::make_unique<Impl>(context, options)) {}
ModelBuilder::~ModelBuilder() = default;

const ValueFacts &ModelBuilder::facts() const { return impl_->facts; }

TrainingLoopModel ModelBuilder::build() {
  impl_->ensureOrigins();
  TrainingLoopModel model;
  Impl::Finder finder;
  finder.impl = impl_.get();
  finder.model = &model;
  finder.TraverseDecl(impl_->context.getTranslationUnitDecl());
  return model;
}

std::optional<TrainingLoop> ModelBuilder::analyseLoop(const Stmt *loop,
                                                      const FunctionDecl *function) {
  return impl_->analyseScope(loopBody(loop), loop, function);
}

std::optional<TrainingLoop> ModelBuilder::analyseStepFunction(const FunctionDecl *function) {
  return impl_->analyseScope(function->getBody(), nullptr, function);
}

} // namespace gradlint
