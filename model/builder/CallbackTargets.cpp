// Calls through a callable object (`std::function<void()> on_step`): the
// callee is the library's operator(), so the lambda it runs is found from the
// values the translation unit gives the object (its initialiser, assignments,
// a constructor's member initialiser, or the arguments passed for a
// parameter). Only a single lambda is followed: with several different
// targets, or one the code does not show, which one runs is a guess.
#include "model/UserCode.h"
#include "model/builder/WalkState.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <algorithm>

using namespace clang;

namespace gradlint::builder {

namespace {

constexpr unsigned kMaxDepth = 6;

/// The arguments the translation unit passes for `param` (calls and
/// constructions of its function); false when one is missing (a default).
bool argumentsFor(const ParmVarDecl *param, ValueFacts &facts, std::vector<const Expr *> &out) {
  auto *function = dyn_cast<FunctionDecl>(param->getDeclContext());
  if (!function)
    return false;
  const FunctionDecl *canonical = function->getCanonicalDecl();
  unsigned index = param->getFunctionScopeIndex();
  struct Finder : RecursiveASTVisitor<Finder> {
    const FunctionDecl *canonical;
    unsigned index;
    const SourceManager *sm;
    std::vector<const Expr *> *out;
    bool complete = true;
    bool shouldVisitLambdaBody() const { return true; }
    bool TraverseDecl(Decl *decl) {
      if (decl && !isa<TranslationUnitDecl>(decl) && !isUserCode(*sm, decl->getLocation()))
        return true;
      return RecursiveASTVisitor<Finder>::TraverseDecl(decl);
    }
    void argument(const FunctionDecl *callee, unsigned offset, unsigned count,
                  const Expr *const *args) {
      if (!callee || callee->getCanonicalDecl() != canonical)
        return;
      if (index + offset >= count || isa<CXXDefaultArgExpr>(args[index + offset]))
        complete = false;
      else
        out->push_back(args[index + offset]);
    }
    bool VisitCallExpr(CallExpr *call) {
      unsigned offset = isa<CXXOperatorCallExpr>(call) && isa<CXXMethodDecl>(canonical) ? 1 : 0;
      argument(call->getDirectCallee(), offset, call->getNumArgs(), call->getArgs());
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *construct) {
      argument(construct->getConstructor(), 0, construct->getNumArgs(), construct->getArgs());
      return true;
    }
  } finder;
  finder.canonical = canonical;
  finder.index = index;
  finder.sm = &facts.context().getSourceManager();
  finder.out = &out;
  finder.TraverseDecl(facts.context().getTranslationUnitDecl());
  return finder.complete;
}

/// Adds the lambdas `value` may hold to `lambdas`; false when a value is not
/// one the translation unit shows.
bool collectLambdas(ResolvedExpr value, ValueFacts &facts, std::vector<const LambdaExpr *> &lambdas,
                    unsigned depth) {
  if (depth > kMaxDepth)
    return false;
  value = facts.resolve(value);
  const Expr *expr = stripCasts(value.expr);
  if (!expr)
    return false;
  if (auto *construct = dyn_cast<CXXConstructExpr>(expr); construct && construct->getNumArgs() == 0)
    return true; // an empty std::function: calling it throws, it runs nothing
  if (isa<CXXNullPtrLiteralExpr>(expr))
    return true;
  if (auto *call = dyn_cast<CallExpr>(expr))
    if (const FunctionDecl *callee = call->getDirectCallee();
        callee && callee->isInStdNamespace() && callee->getIdentifier() &&
        (callee->getName() == "move" || callee->getName() == "forward") && call->getNumArgs() == 1)
      return collectLambdas({call->getArg(0), value.frame}, facts, lambdas, depth + 1);
  if (auto *lambda = dyn_cast<LambdaExpr>(expr)) {
    if (std::find(lambdas.begin(), lambdas.end(), lambda) == lambdas.end())
      lambdas.push_back(lambda);
    return true;
  }
  const ValueDecl *decl = facts.referencedDecl(value);
  if (!decl)
    return false;
  if (auto *param = dyn_cast<ParmVarDecl>(decl)) {
    std::vector<const Expr *> arguments;
    if (!argumentsFor(param, facts, arguments) || arguments.empty())
      return false;
    for (const Expr *argument : arguments)
      if (!collectLambdas({argument, nullptr}, facts, lambdas, depth + 1))
        return false;
    return true;
  }
  const std::vector<ValueOrigin> &origins = facts.originsOf(decl);
  if (origins.empty())
    return false;
  for (const ValueOrigin &origin : origins) {
    if (origin.kind != ValueOrigin::Init && origin.kind != ValueOrigin::Assign)
      return false;
    if (!collectLambdas({origin.value, nullptr}, facts, lambdas, depth + 1))
      return false;
  }
  return true;
}

} // namespace

const FunctionDecl *callbackLambda(const CallExpr *call, const SubstFrame *frame,
                                   ValueFacts &facts) {
  auto *op = dyn_cast<CXXOperatorCallExpr>(call);
  if (!op || op->getOperator() != OO_Call || op->getNumArgs() < 1)
    return nullptr;
  // Only std::function: other functors (modules, losses) run their own operator().
  const CXXRecordDecl *record = op->getArg(0)->getType()->getAsCXXRecordDecl();
  if (!record || !record->isInStdNamespace() || !record->getIdentifier() ||
      record->getName() != "function")
    return nullptr;
  std::vector<const LambdaExpr *> lambdas;
  if (!collectLambdas({op->getArg(0), frame}, facts, lambdas, 0) || lambdas.size() != 1)
    return nullptr;
  const CXXMethodDecl *callOperator = lambdas.front()->getCallOperator();
  if (!callOperator || !callOperator->getBody() ||
      !isUserCode(facts.context().getSourceManager(), callOperator->getLocation()))
    return nullptr;
  return callOperator;
}

} // namespace gradlint::builder
