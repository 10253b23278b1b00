// Whether the module a training loop trains holds half-precision parameters:
// a `Module::to(torch::kHalf)` (or kFloat16, kBFloat16, with or without a
// device) in the loop's function, in its class, or in a function that calls
// it, and no conversion to fp32 there (a master copy, or the module converted
// back).
#include "model/ApiCalls.h"
#include "model/UserCode.h"
#include "model/builder/WalkState.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

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
      out->push_back({call, functions.back(), type, isModuleMethod(call)});
    return true;
  }
};

/// Functions that call `function` directly.
bool calls(const FunctionDecl *caller, const FunctionDecl *function) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const FunctionDecl *target;
    bool found = false;
    bool VisitCallExpr(CallExpr *call) {
      const FunctionDecl *callee = call->getDirectCallee();
      if (callee && callee->getTemplateInstantiationPattern())
        callee = callee->getTemplateInstantiationPattern();
      found = found || (callee && callee->getCanonicalDecl() == target);
      return !found;
    }
  } finder;
  finder.target = function->getCanonicalDecl();
  if (caller->getBody())
    finder.TraverseStmt(const_cast<Stmt *>(caller->getBody()));
  return finder.found;
}

/// Whether a conversion in `where` concerns the loop in `function`.
bool related(const FunctionDecl *where, const FunctionDecl *function) {
  if (where->getCanonicalDecl() == function->getCanonicalDecl())
    return true;
  const auto *a = dyn_cast<CXXMethodDecl>(where), *b = dyn_cast<CXXMethodDecl>(function);
  if (a && b && a->getParent()->getCanonicalDecl() == b->getParent()->getCanonicalDecl())
    return true;
  return calls(where, function);
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
  for (const ValueFacts::DtypeConversion &conversion : facts.conversions) {
    if (!related(conversion.function, loop.function))
      continue;
    if (!isHalf(conversion.type))
      return; // an fp32 copy or a conversion back: not plain half accumulation
    if (conversion.ofModule && !half)
      half = &conversion;
  }
  if (half) {
    loop.halfPrecision.conversion = half->call;
    loop.halfPrecision.type = half->type == "Half" ? "float16" : "bfloat16";
  }
}

} // namespace gradlint::builder
