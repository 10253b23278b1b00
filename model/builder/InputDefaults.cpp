// The value a setting takes when the program's inputs leave it alone: the
// fallback of `argc > 1 ? std::stoll(argv[1]) : 4`, of an argument reader's
// `get_int("--accum", 4)` (followed into its body), of
// `getenv("ACCUM") ? atoi(getenv("ACCUM")) : 4`. A fact about the code as
// shipped: with its defaults, the loop runs with that N.
#include "model/ApiCalls.h"
#include "model/AstHelpers.h"
#include "model/builder/WalkState.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace gradlint::builder {

namespace {

constexpr unsigned kMaxDefaultDepth = 8;

std::optional<int64_t> fromConstructions(ValueFacts &facts, const CXXConstructorDecl *ctor,
                                         const ParmVarDecl *param, unsigned depth);

/// Whether `stmt` reads the command line or the environment: a parse of a
/// string (atoi, std::stoll, strtol...), getenv, or a `char **` argument vector.
bool readsInput(const Stmt *stmt) {
  if (!stmt)
    return false;
  if (const auto *call = dyn_cast<CallExpr>(stmt))
    if (const FunctionDecl *callee = call->getDirectCallee(); callee && callee->getIdentifier()) {
      llvm::StringRef name = callee->getName();
      static const char *const kParsers[] = {"atoi", "atol", "atoll", "atof", "stoi", "stol",
                                             "stoll", "stoul", "stoull", "stof", "stod",
                                             "strtol", "strtoll", "strtoul", "strtod", "getenv"};
      for (const char *parser : kParsers)
        if (name == parser)
          return true;
    }
  if (const auto *expr = dyn_cast<Expr>(stmt)) {
    const ValueDecl *decl = nullptr;
    if (auto *ref = dyn_cast<DeclRefExpr>(expr))
      decl = ref->getDecl();
    else if (auto *member = dyn_cast<MemberExpr>(expr))
      decl = member->getMemberDecl();
    if (decl && !decl->getType().isNull()) {
      QualType type = decl->getType().getNonReferenceType();
      if (!type.isNull() && (type->isPointerType() || type->isArrayType()) &&
          type->getPointeeOrArrayElementType()->isPointerType() &&
          type->getPointeeOrArrayElementType()->getPointeeType()->isCharType())
        return true; // char **argv
    }
  }
  for (const Stmt *child : stmt->children())
    if (readsInput(child))
      return true;
  return false;
}

std::optional<int64_t> defaultOf(ValueFacts &facts, ResolvedExpr value, unsigned depth) {
  if (!value.expr || depth > kMaxDefaultDepth)
    return std::nullopt;
  if (std::optional<int64_t> constant = facts.constantInt(value))
    return constant;
  value = facts.resolve(value);
  const Expr *expr = stripCasts(value.expr);
  if (const auto *choice = dyn_cast<ConditionalOperator>(expr)) {
    bool trueReads = readsInput(choice->getTrueExpr());
    bool falseReads = readsInput(choice->getFalseExpr());
    if (trueReads == falseReads)
      return std::nullopt;
    return defaultOf(facts, {trueReads ? choice->getFalseExpr() : choice->getTrueExpr(), value.frame},
                     depth + 1);
  }
  if (const auto *call = dyn_cast<CallExpr>(expr)) {
    // A reader of the user's code: its returns that do not parse input agree.
    const FunctionDecl *callee = inlinableCallee(call, facts.context().getSourceManager());
    if (!callee || callee->getReturnType().isNull() || !callee->getReturnType()->isScalarType())
      return std::nullopt;
    const SubstFrame *frame = facts.pushFrame(callee, call, value.frame);
    std::optional<int64_t> result;
    bool parses = false;
    for (const Expr *returned : returnedValues(callee->getBody())) {
      if (readsInput(returned)) {
        parses = true;
        continue;
      }
      std::optional<int64_t> fallback = defaultOf(facts, {returned, frame}, depth + 1);
      if (!fallback || (result && *result != *fallback))
        return std::nullopt;
      result = fallback;
    }
    return parses ? result : std::nullopt;
  }
  // A variable or field given its value once (a field's default member
  // initializer gives way to the one assignment that replaces it).
  const ValueDecl *decl = facts.referencedDecl(value);
  if (!decl || isa<ParmVarDecl>(decl))
    return std::nullopt;
  const auto *field = dyn_cast<FieldDecl>(decl);
  const std::vector<ValueOrigin> &origins = facts.originsOf(decl);
  const ValueOrigin *given = nullptr;
  for (const ValueOrigin &origin : origins) {
    bool memberDefault = field && field->hasInClassInitializer() &&
                         origin.kind == ValueOrigin::Init &&
                         origin.value == field->getInClassInitializer();
    if (memberDefault && origins.size() > 1)
      continue;
    if (given || (origin.kind != ValueOrigin::Init && origin.kind != ValueOrigin::Assign))
      return std::nullopt;
    given = &origin;
  }
  // A field set in a constructor from its parameter: every construction agrees.
  if (given && field && isa<DeclRefExpr>(stripCasts(given->value)))
    if (auto *param = dyn_cast<ParmVarDecl>(cast<DeclRefExpr>(stripCasts(given->value))->getDecl()))
      if (auto *ctor = dyn_cast<CXXConstructorDecl>(param->getDeclContext()))
        return fromConstructions(facts, ctor, param, depth);
  return given ? defaultOf(facts, {given->value, nullptr}, depth + 1) : std::nullopt;
}

/// `Recipe recipe(args.get_int("--accum", 8), ...)` for a field `accum_(accum)`.
std::optional<int64_t> fromConstructions(ValueFacts &facts, const CXXConstructorDecl *ctor,
                                         const ParmVarDecl *param, unsigned depth) {
  const std::vector<const Expr *> &built = facts.constructionsOf(ctor->getParent());
  if (built.empty() || built.size() > 4)
    return std::nullopt;
  std::optional<int64_t> result;
  unsigned index = param->getFunctionScopeIndex();
  for (const Expr *construction : built) {
    const auto *construct = dyn_cast<CXXConstructExpr>(construction);
    if (!construct || construct->getConstructor()->getCanonicalDecl() != ctor->getCanonicalDecl() ||
        index >= construct->getNumArgs())
      return std::nullopt;
    std::optional<int64_t> value = defaultOf(facts, {construct->getArg(index), nullptr}, depth + 1);
    if (!value || (result && *result != *value))
      return std::nullopt;
    result = value;
  }
  return result;
}

} // namespace

std::optional<int64_t> inputDefault(ValueFacts &facts, ResolvedExpr value) {
  return defaultOf(facts, value, 0);
}

} // namespace gradlint::builder
