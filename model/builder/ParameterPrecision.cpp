// Whether the module a training loop trains holds half-precision parameters:
// a `Module::to(torch::kHalf)` (or kFloat16, kBFloat16, with or without a
// device) in the loop's function, in its class, or in a function that calls
// it, and no conversion to fp32 there (a master copy, or the module converted
// back).
#include "model/ApiCalls.h"
#include "model/AstHelpers.h"
#include "model/UserCode.h"
#include "model/builder/WalkState.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace gradlint::builder {

namespace {

/// The c10::ScalarType an expression names (`torch::kHalf`, `at::kBFloat16`,
/// `c10::ScalarType::Half`): "Half", "BFloat16", "Float", ..., or empty.
std::string scalarTypeName(const Expr *expr, unsigned depth = 0) {
  if (!expr || depth > 6)
    return "";
  expr = stripCasts(expr)->IgnoreParens();
  const auto *ref = dyn_cast<DeclRefExpr>(expr);
  if (!ref)
    return "";
  if (const auto *constant = dyn_cast<EnumConstantDecl>(ref->getDecl())) {
    const auto *type = dyn_cast<EnumDecl>(constant->getDeclContext());
    return type && type->getName() == "ScalarType" ? constant->getName().str() : "";
  }
  if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
    if (var->getInit())
      return scalarTypeName(var->getInit(), depth + 1);
  return "";
}

bool isHalf(const std::string &type) { return type == "Half" || type == "BFloat16"; }

/// `m->to(kHalf)`, `m.to(device, kBFloat16)`, `t.to(torch::kFloat)`: the call's dtype.
std::string conversionType(const CallExpr *call) {
  const FunctionDecl *callee = call->getDirectCallee();
  if (!callee || !callee->getIdentifier() || callee->getName() != "to")
    return "";
  for (const Expr *arg : call->arguments()) {
    std::string type = scalarTypeName(arg);
    if (!type.empty())
      return type;
  }
  return "";
}

bool isModuleMethod(const CallExpr *call) {
  const auto *method = dyn_cast_or_null<CXXMethodDecl>(call->getDirectCallee());
  if (!method)
    return false;
  const CXXRecordDecl *record = method->getParent();
  return record && record->getName() == "Module";
}

/// Whether `expr` reads a gradient: `p.grad()`, `p.mutable_grad()`, or a
/// local initialised from one (`auto &g = p.mutable_grad(); g.to(kFloat)`).
bool readsGrad(const Stmt *expr, unsigned depth = 0) {
  if (!expr || depth > 4)
    return false;
  if (const auto *call = dyn_cast<CallExpr>(expr))
    if (const FunctionDecl *callee = call->getDirectCallee())
      if (callee->getIdentifier() &&
          (callee->getName() == "grad" || callee->getName() == "mutable_grad"))
        return true;
  if (const auto *ref = dyn_cast<DeclRefExpr>(expr))
    if (const Expr *init = localInitializer(ref->getDecl()))
      return readsGrad(init, depth + 1);
  for (const Stmt *child : expr->children())
    if (readsGrad(child, depth))
      return true;
  return false;
}

/// The module object a `to()` call converts (`backbone` of `backbone->to(kHalf)`).
const ValueDecl *convertedModule(const CallExpr *call) {
  const auto *member = dyn_cast<CXXMemberCallExpr>(call);
  return member ? lvalueDecl(member->getImplicitObjectArgument()) : nullptr;
}

/// Whether `function` freezes every parameter of `module`:
/// `for (auto &p : module->parameters()) p.set_requires_grad(false);`. A frozen
/// module has no gradients to accumulate, whatever its dtype.
bool freezesParameters(const FunctionDecl *function, const ValueDecl *module) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const ValueDecl *module = nullptr;
    bool found = false;
    bool VisitCXXForRangeStmt(CXXForRangeStmt *loop) {
      const auto *range = dyn_cast<CXXMemberCallExpr>(loop->getRangeInit()->IgnoreImplicit());
      const FunctionDecl *callee = range ? range->getDirectCallee() : nullptr;
      if (!callee || !callee->getIdentifier() || callee->getName() != "parameters" ||
          lvalueDecl(range->getImplicitObjectArgument()) != module)
        return true;
      const Stmt *body = loop->getBody();
      if (const auto *compound = dyn_cast<CompoundStmt>(body); compound && compound->size() == 1)
        body = compound->body_front();
      const auto *call = dyn_cast<CXXMemberCallExpr>(body);
      const FunctionDecl *freeze = call ? call->getDirectCallee() : nullptr;
      if (freeze && freeze->getIdentifier() &&
          (freeze->getName() == "set_requires_grad" || freeze->getName() == "requires_grad_") &&
          call->getNumArgs() == 1)
        if (const auto *value = dyn_cast<CXXBoolLiteralExpr>(call->getArg(0)->IgnoreImplicit()))
          found = found || !value->getValue();
      return true;
    }
  } finder;
  finder.module = module;
  if (module && function && function->getBody())
    finder.TraverseStmt(const_cast<Stmt *>(function->getBody()));
  return finder.found;
}

/// Every `to(<dtype>)` call of the translation unit's user code, with the
/// function it is in.
struct ConversionFinder : RecursiveASTVisitor<ConversionFinder> {
  ASTContext *context = nullptr;
  std::vector<const FunctionDecl *> functions;
  std::vector<ValueFacts::DtypeConversion> *out = nullptr;

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitLambdaBody() const { return true; }
  bool TraverseDecl(Decl *decl) {
    if (!decl)
      return true;
    if (!isa<TranslationUnitDecl>(decl) &&
        !isUserCode(context->getSourceManager(), decl->getLocation()))
      return true;
    auto *fn = dyn_cast<FunctionDecl>(decl);
    if (fn)
      functions.push_back(fn);
    bool result = RecursiveASTVisitor::TraverseDecl(decl);
    if (fn)
      functions.pop_back();
    return result;
  }
  bool VisitCallExpr(CallExpr *call) {
    std::string type = conversionType(call);
    if (!type.empty() && !functions.empty())
      out->push_back({call, functions.back(), type, isModuleMethod(call),
                      isa<CXXMemberCallExpr>(call) &&
                          readsGrad(cast<CXXMemberCallExpr>(call)->getImplicitObjectArgument())});
    return true;
  }
};

/// The last call of `function` in `caller`'s body, or null.
const CallExpr *lastCallOf(const FunctionDecl *caller, const FunctionDecl *function) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const FunctionDecl *target;
    const CallExpr *found = nullptr;
    bool VisitCallExpr(CallExpr *call) {
      const FunctionDecl *callee = call->getDirectCallee();
      if (callee && callee->getTemplateInstantiationPattern())
        callee = callee->getTemplateInstantiationPattern();
      if (callee && callee->getCanonicalDecl() == target)
        found = call;
      return true;
    }
  } finder;
  finder.target = function->getCanonicalDecl();
  if (caller->getBody())
    finder.TraverseStmt(const_cast<Stmt *>(caller->getBody()));
  return finder.found;
}

/// Whether a conversion concerns the loop: before the loop in its own
/// function, in another method of its class, or before a call of the loop's
/// function in a caller (a conversion after training, to export, does not).
/// Unordered (an fp32 path), also in a function the loop's function calls.
bool related(const ValueFacts::DtypeConversion &conversion, const TrainingLoop &loop,
             const SourceManager &sm, bool ordered) {
  // The conversions are read in the template's text; the loop may be read in
  // its instantiation.
  const FunctionDecl *where = conversion.function, *function = writtenFunction(loop.function);
  SourceLocation at = conversion.call->getBeginLoc();
  if (where->getCanonicalDecl() == function->getCanonicalDecl())
    return !ordered || (loop.loop && sm.isBeforeInTranslationUnit(at, loop.loop->getBeginLoc()));
  const auto *a = dyn_cast<CXXMethodDecl>(where), *b = dyn_cast<CXXMethodDecl>(function);
  if (a && b && a->getParent()->getCanonicalDecl() == b->getParent()->getCanonicalDecl())
    return !ordered || isa<CXXConstructorDecl>(a);
  // An fp32 path in a function the loop's function calls (its step function).
  if (!ordered && lastCallOf(function, where))
    return true;
  const CallExpr *call = lastCallOf(where, function);
  return call && (!ordered || sm.isBeforeInTranslationUnit(at, call->getBeginLoc()));
}

} // namespace

void readParameterPrecision(ValueFacts &facts, TrainingLoop &loop) {
  if (!loop.function || !loop.window)
    return;
  if (!facts.conversionsCollected) {
    facts.conversionsCollected = true;
    ConversionFinder finder;
    finder.context = &facts.context();
    finder.out = &facts.conversions;
    finder.TraverseDecl(facts.context().getTranslationUnitDecl());
  }
  const ValueFacts::DtypeConversion *half = nullptr;
  const SourceManager &sm = facts.context().getSourceManager();
  for (const ValueFacts::DtypeConversion &conversion : facts.conversions) {
    // A half conversion counts before training; an fp32 path anywhere.
    if (!related(conversion, loop, sm, isHalf(conversion.type)))
      continue;
    // A module converted to another dtype (back to float32), or gradients
    // copied into another dtype (an fp32 buffer): not plain half accumulation.
    // Other tensors converted to float (a loss, a log) say nothing.
    if (!isHalf(conversion.type) && (conversion.ofModule || conversion.ofGradient))
      return;
    if (conversion.ofModule && !half &&
        !freezesParameters(conversion.function, convertedModule(conversion.call)))
      half = &conversion;
  }
  if (half) {
    loop.halfPrecision.conversion = half->call;
    loop.halfPrecision.type = half->type == "Half" ? "float16" : "bfloat16";
  }
}

} // namespace gradlint::builder
