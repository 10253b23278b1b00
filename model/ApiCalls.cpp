#include "model/ApiCalls.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace gradlint {

std::string qualifiedName(const NamedDecl *decl) {
  if (!decl)
    return "";
  return decl->getQualifiedNameAsString();
}

bool isOrDerivesFrom(const CXXRecordDecl *record, llvm::StringRef qualified) {
  if (!record)
    return false;
  record = record->getDefinition() ? record->getDefinition() : record;
  if (qualifiedName(record) == qualified)
    return true;
  if (!record->hasDefinition())
    return false;
  for (const CXXBaseSpecifier &base : record->bases()) {
    const CXXRecordDecl *baseDecl = base.getType()->getAsCXXRecordDecl();
    if (baseDecl && isOrDerivesFrom(baseDecl, qualified))
      return true;
  }
  return false;
}

QualType smartPointerMadeType(const CallExpr *call) {
  const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  if (!callee || !callee->getIdentifier() ||
      (callee->getName() != "make_unique" && callee->getName() != "make_shared" &&
       callee->getName() != "make_intrusive"))
    return {};
  const TemplateArgumentList *args = callee->getTemplateSpecializationArgs();
  if (!args || args->size() < 1 || args->get(0).getKind() != TemplateArgument::Type)
    return {};
  return args->get(0).getAsType();
}

const Expr *stripImplicit(const Expr *expr) {
  while (expr) {
    const Expr *next = expr->IgnoreParenImpCasts();
    if (auto *cleanups = dyn_cast<ExprWithCleanups>(next))
      next = cleanups->getSubExpr();
    else if (auto *temp = dyn_cast<MaterializeTemporaryExpr>(next))
      next = temp->getSubExpr();
    else if (auto *bind = dyn_cast<CXXBindTemporaryExpr>(next))
      next = bind->getSubExpr();
    else if (auto *construct = dyn_cast<CXXConstructExpr>(next)) {
      // Implicit copies and moves: Tensor(loss).
      if (construct->getNumArgs() == 1 &&
          (construct->getConstructor()->isCopyOrMoveConstructor() ||
           construct->getConstructor()->isConvertingConstructor(false)) &&
          !isa<CXXTemporaryObjectExpr>(construct))
        next = construct->getArg(0);
    }
    if (next == expr)
      return expr;
    expr = next;
  }
  return expr;
}

const Expr *stripCasts(const Expr *expr) {
  while (expr) {
    const Expr *next = stripImplicit(expr);
    if (auto *cast = dyn_cast<ExplicitCastExpr>(next))
      next = cast->getSubExpr();
    if (next == expr)
      return expr;
    expr = next;
  }
  return expr;
}

std::optional<std::string> dependentCalleeName(const CallExpr *call, const Expr **object) {
  const Expr *callee = call->getCallee()->IgnoreParenImpCasts();
  if (auto *dep = dyn_cast<CXXDependentScopeMemberExpr>(callee)) {
    if (object)
      *object = dep->isImplicitAccess() ? nullptr : dep->getBase();
    return dep->getMember().getAsString();
  }
  if (auto *unresolved = dyn_cast<UnresolvedMemberExpr>(callee)) {
    if (object)
      *object = unresolved->isImplicitAccess() ? nullptr : unresolved->getBase();
    return unresolved->getMemberName().getAsString();
  }
  if (auto *lookup = dyn_cast<UnresolvedLookupExpr>(callee)) {
    if (object)
      *object = nullptr;
    return lookup->getName().getAsString();
  }
  if (auto *depRef = dyn_cast<DependentScopeDeclRefExpr>(callee)) {
    if (object)
      *object = nullptr;
    return depRef->getDeclName().getAsString();
  }
  return std::nullopt;
}

namespace {

bool isTensorClass(const CXXRecordDecl *record) {
  return isOrDerivesFrom(record, "at::TensorBase");
}

/// The kinds decided by the name of a Tensor member function.
ApiKind tensorMemberKind(llvm::StringRef name) {
  return llvm::StringSwitch<ApiKind>(name)
      .Case("backward", ApiKind::Backward)
      .Cases("grad", "mutable_grad", ApiKind::GradAccess)
      .Cases("zero_", "reset", "fill_", ApiKind::TensorReset)
      .Cases("div_", "mul_", "true_divide_", ApiKind::TensorScaleInPlace)
      .Cases("div", "true_divide", ApiKind::TensorDivide)
      .Case("mul", ApiKind::TensorMultiply)
      .Default(ApiKind::None);
}

bool isLossFunctionName(llvm::StringRef name) {
  return name.ends_with("_loss") || name == "cross_entropy" || name == "binary_cross_entropy" ||
         name == "binary_cross_entropy_with_logits" || name == "nll_loss" || name == "kl_div";
}

/// allreduce, all_reduce, allReduce, MPI_Allreduce, ncclAllReduce, ...
bool isAllReduceName(llvm::StringRef name) {
  std::string folded;
  for (char c : name)
    if (c != '_')
      folded.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return llvm::StringRef(folded).contains("allreduce");
}

ApiCallInfo byNameFallback(const CallExpr *call, const ModelOptions &options) {
  ApiCallInfo info;
  const Expr *object = nullptr;
  std::optional<std::string> name = dependentCalleeName(call, &object);
  if (!name)
    return info;
  info.byName = true;
  info.name = *name;
  info.object = object;
  unsigned args = call->getNumArgs();
  if (object) {
    ApiKind tensorKind = tensorMemberKind(*name);
    if (*name == "zero_grad" && args <= 1)
      info.kind = ApiKind::OptimizerZeroGrad;
    else if (*name == "step" && args <= 1)
      info.kind = ApiKind::OptimizerStep;
    else if (*name == "getSize" && args == 0)
      info.kind = ApiKind::WorldSizeQuery;
    else if ((*name == "allreduce" || *name == "allreduce_coalesced"))
      info.kind = ApiKind::ProcessGroupAllReduce;
    else if (isAllReduceName(*name))
      info.kind = ApiKind::NamedAllReduce;
    else if (options.isGradientSyncFunctionName(*name))
      info.kind = ApiKind::NamedAllReduce, info.configured = true;
    else if (tensorKind != ApiKind::None &&
             (tensorKind == ApiKind::Backward || tensorKind == ApiKind::GradAccess || args <= 1))
      info.kind = tensorKind;
    if (args >= 1 && (info.kind == ApiKind::TensorScaleInPlace ||
                      info.kind == ApiKind::TensorDivide || info.kind == ApiKind::TensorMultiply))
      info.operand = call->getArg(0);
    return info;
  }
  if (options.isGradientSyncFunctionName(*name))
    info.kind = ApiKind::NamedAllReduce, info.configured = true;
  else if (*name == "clip_grad_norm_")
    info.kind = ApiKind::ClipGradNorm;
  else if (*name == "clip_grad_value_")
    info.kind = ApiKind::ClipGradValue;
  else if (isAllReduceName(*name))
    info.kind = ApiKind::NamedAllReduce;
  else if (isLossFunctionName(*name))
    info.kind = ApiKind::LossFunction;
  return info;
}

ApiCallInfo classifyOperator(const CXXOperatorCallExpr *op) {
  ApiCallInfo info;
  if (op->getNumArgs() != 2)
    return info;
  const Expr *lhs = op->getArg(0);
  const Expr *rhs = op->getArg(1);
  bool lhsIsTensor = isTensorClass(lhs->getType()->getAsCXXRecordDecl());
  bool rhsIsTensor = isTensorClass(rhs->getType()->getAsCXXRecordDecl());
  if (!lhsIsTensor && !(rhsIsTensor && op->getOperator() == OO_Star))
    return info;
  // scalar * tensor: the tensor is the object, the scalar the factor.
  info.object = lhsIsTensor ? lhs : rhs;
  info.operand = lhsIsTensor ? rhs : lhs;
  switch (op->getOperator()) {
  case OO_Slash: info.kind = ApiKind::TensorDivide; break;
  case OO_Star: info.kind = ApiKind::TensorMultiply; break;
  case OO_SlashEqual:
  case OO_StarEqual: info.kind = ApiKind::TensorScaleInPlace; break;
  default: break;
  }
  return info;
}

} // namespace

ApiCallInfo classifyCall(const CallExpr *call, const ModelOptions &options) {
  if (auto *op = dyn_cast<CXXOperatorCallExpr>(call)) {
    ApiCallInfo info = classifyOperator(op);
    if (info.kind != ApiKind::None)
      return info;
    // operator() of a loss module holder: criterion(out, y).
    if (op->getOperator() == OO_Call) {
      if (const CXXRecordDecl *holder = op->getArg(0)->getType()->getAsCXXRecordDecl())
        if (holder->getName().ends_with("Loss") || holder->getName().ends_with("LossImpl"))
          info.kind = ApiKind::LossFunction;
    }
    return info;
  }

  const FunctionDecl *callee = call->getDirectCallee();
  if (!callee)
    return byNameFallback(call, options);

  ApiCallInfo info;
  info.name = callee->getNameAsString();
  llvm::StringRef name = info.name;
  if (options.isGradientSyncFunction(callee)) {
    info.kind = ApiKind::NamedAllReduce;
    info.configured = true;
    if (auto *member = dyn_cast<CXXMemberCallExpr>(call))
      info.object = member->getImplicitObjectArgument();
    return info;
  }

  if (auto *method = dyn_cast<CXXMethodDecl>(callee)) {
    const CXXRecordDecl *record = method->getParent();
    if (auto *member = dyn_cast<CXXMemberCallExpr>(call))
      info.object = member->getImplicitObjectArgument();
    if (isTensorClass(record)) {
      info.kind = tensorMemberKind(name);
      if (call->getNumArgs() >= 1 &&
          (info.kind == ApiKind::TensorScaleInPlace || info.kind == ApiKind::TensorDivide ||
           info.kind == ApiKind::TensorMultiply))
        info.operand = call->getArg(0);
      return info;
    }
    if (isOrDerivesFrom(record, "torch::optim::Optimizer") || options.isOptimizerWrapper(record)) {
      if (name == "step")
        info.kind = ApiKind::OptimizerStep;
      else if (name == "zero_grad")
        info.kind = ApiKind::OptimizerZeroGrad;
      return info;
    }
    if (isOrDerivesFrom(record, "torch::optim::LRScheduler") ||
        isOrDerivesFrom(record, "torch::optim::ReduceLROnPlateauScheduler")) {
      if (name == "step")
        info.kind = ApiKind::SchedulerStep;
      return info;
    }
    if (isOrDerivesFrom(record, "torch::nn::Module")) {
      if (name == "zero_grad")
        info.kind = ApiKind::ModuleZeroGrad;
      else if ((name == "forward") && record->getName().ends_with("LossImpl"))
        info.kind = ApiKind::LossFunction;
      return info;
    }
    if (isOrDerivesFrom(record, "c10d::ProcessGroup") || isOrDerivesFrom(record, "c10d::Backend")) {
      if (name == "allreduce" || name == "allreduce_coalesced")
        info.kind = ApiKind::ProcessGroupAllReduce;
      else if (name == "getSize")
        info.kind = ApiKind::WorldSizeQuery;
      return info;
    }
    // A user communicator (MPI, NCCL and Gloo wrappers are common).
    if (isAllReduceName(name))
      info.kind = ApiKind::NamedAllReduce;
    return info;
  }

  std::string qualified = qualifiedName(callee);
  llvm::StringRef q = qualified;
  if (q == "torch::autograd::backward")
    info.kind = ApiKind::Backward;
  else if (q == "torch::nn::utils::clip_grad_norm_")
    info.kind = ApiKind::ClipGradNorm;
  else if (q == "torch::nn::utils::clip_grad_value_")
    info.kind = ApiKind::ClipGradValue;
  else if (q == "MPI_Comm_size")
    info.kind = ApiKind::WorldSizeQuery;
  else if ((q.starts_with("torch::") || q.starts_with("at::")) && isLossFunctionName(name))
    info.kind = ApiKind::LossFunction;
  else if ((q == "torch::div" || q == "at::div" || q == "torch::true_divide" ||
            q == "at::true_divide") &&
           call->getNumArgs() >= 2) {
    info.kind = ApiKind::TensorDivide;
    info.object = call->getArg(0);
    info.operand = call->getArg(1);
  } else if ((q == "torch::mul" || q == "at::mul") && call->getNumArgs() >= 2) {
    info.kind = ApiKind::TensorMultiply;
    info.object = call->getArg(0);
    info.operand = call->getArg(1);
  } else if (isAllReduceName(name))
    info.kind = ApiKind::NamedAllReduce;
  return info;
}

bool dividesInPlace(const CallExpr *call, const ApiCallInfo &info) {
  if (info.kind != ApiKind::TensorScaleInPlace)
    return false;
  auto *op = dyn_cast<CXXOperatorCallExpr>(call);
  return info.name == "div_" || info.name == "true_divide_" ||
         (op && op->getOperator() == OO_SlashEqual);
}

} // namespace gradlint
