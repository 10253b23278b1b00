#include "model/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace gradlint {

bool isNamed(const NamedDecl *decl, llvm::StringRef name) {
  return decl && decl->getIdentifier() && decl->getName() == name;
}

bool endsWithJump(const Stmt *stmt) {
  if (!stmt)
    return false;
  if (isa<ContinueStmt>(stmt) || isa<ReturnStmt>(stmt) || isa<BreakStmt>(stmt))
    return true;
  if (auto *compound = dyn_cast<CompoundStmt>(stmt))
    return !compound->body_empty() && endsWithJump(compound->body_back());
  return false;
}

const Stmt *endingJump(const Stmt *stmt) {
  if (!stmt)
    return nullptr;
  if (isa<ContinueStmt>(stmt) || isa<ReturnStmt>(stmt) || isa<BreakStmt>(stmt))
    return stmt;
  if (auto *compound = dyn_cast<CompoundStmt>(stmt))
    return compound->body_empty() ? nullptr : endingJump(compound->body_back());
  return nullptr;
}

bool isLoop(const Stmt *stmt) {
  return isa<ForStmt>(stmt) || isa<WhileStmt>(stmt) || isa<DoStmt>(stmt) ||
         isa<CXXForRangeStmt>(stmt);
}

const Stmt *loopBody(const Stmt *loop) {
  if (!loop)
    return nullptr;
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

std::vector<const Expr *> returnedValues(const Stmt *body, bool intoLambdas) {
  struct Returns : RecursiveASTVisitor<Returns> {
    bool intoLambdas = false;
    std::vector<const Expr *> values;
    bool TraverseLambdaExpr(LambdaExpr *lambda) {
      return intoLambdas ? RecursiveASTVisitor<Returns>::TraverseLambdaExpr(lambda) : true;
    }
    bool VisitReturnStmt(ReturnStmt *ret) {
      if (ret->getRetValue())
        values.push_back(ret->getRetValue());
      return true;
    }
  } returns;
  returns.intoLambdas = intoLambdas;
  returns.TraverseStmt(const_cast<Stmt *>(body));
  return returns.values;
}

const Expr *localInitializer(const ValueDecl *decl) {
  auto *var = dyn_cast_or_null<VarDecl>(decl);
  if (!var || isa<ParmVarDecl>(var) || !var->getInit() || var->hasGlobalStorage())
    return nullptr;
  return var->getInit();
}

bool refersTo(const Stmt *stmt, const ValueDecl *decl) {
  if (!stmt)
    return false;
  if (const auto *ref = dyn_cast<DeclRefExpr>(stmt); ref && ref->getDecl() == decl)
    return true;
  if (const auto *member = dyn_cast<MemberExpr>(stmt); member && member->getMemberDecl() == decl)
    return true;
  for (const Stmt *child : stmt->children())
    if (refersTo(child, decl))
      return true;
  return false;
}

bool inExclusiveBranches(const Stmt *a, const Stmt *b, ASTContext &context) {
  // The branch of each enclosing `if` that holds `a`.
  std::vector<std::pair<const IfStmt *, const Stmt *>> branchesOfA;
  const Stmt *child = a;
  for (const Stmt *parent = parentStmt(a, context); parent;
       child = parent, parent = parentStmt(parent, context))
    if (const auto *branch = dyn_cast<IfStmt>(parent))
      branchesOfA.push_back({branch, child});
  child = b;
  for (const Stmt *parent = parentStmt(b, context); parent;
       child = parent, parent = parentStmt(parent, context))
    if (const auto *branch = dyn_cast<IfStmt>(parent))
      for (auto [ifA, childA] : branchesOfA)
        if (ifA == branch && childA != child && child != branch->getCond() &&
            childA != branch->getCond())
          return true;
  return false;
}

const FunctionDecl *writtenFunction(const FunctionDecl *function) {
  if (!function)
    return nullptr;
  const FunctionDecl *pattern = function->getTemplateInstantiationPattern();
  return pattern ? pattern : function;
}

const Stmt *parentStmt(const Stmt *stmt, ASTContext &context) {
  DynTypedNodeList parents = context.getParents(*stmt);
  return parents.empty() ? nullptr : parents[0].get<Stmt>();
}

bool assignmentSides(const Stmt *statement, const Expr *&lhs, const Expr *&rhs) {
  const auto *expr = dyn_cast_or_null<Expr>(statement);
  expr = expr ? expr->IgnoreImplicit() : nullptr;
  if (auto *assign = dyn_cast_or_null<BinaryOperator>(expr);
      assign && assign->getOpcode() == BO_Assign) {
    lhs = assign->getLHS();
    rhs = assign->getRHS();
    return true;
  }
  if (auto *op = dyn_cast_or_null<CXXOperatorCallExpr>(expr);
      op && op->getOperator() == OO_Equal && op->getNumArgs() == 2) {
    lhs = op->getArg(0);
    rhs = op->getArg(1);
    return true;
  }
  return false;
}

const FunctionDecl *enclosingFunction(const Stmt *stmt, ASTContext &context) {
  DynTypedNodeList parents = context.getParents(*stmt);
  for (unsigned i = 0; i < 64 && !parents.empty(); ++i) {
    if (const auto *function = parents[0].get<FunctionDecl>())
      return function;
    if (parents[0].get<LambdaExpr>())
      return nullptr;
    parents = context.getParents(parents[0]);
  }
  return nullptr;
}

const IfStmt *enclosingIf(const Stmt *stmt, ASTContext &context, bool &inElse) {
  const Stmt *child = stmt;
  DynTypedNodeList parents = context.getParents(*stmt);
  for (unsigned i = 0; i < 64 && !parents.empty(); ++i) {
    if (parents[0].get<Decl>() && !parents[0].get<VarDecl>())
      return nullptr;
    if (const auto *ifStmt = parents[0].get<IfStmt>()) {
      if (child == ifStmt->getThen() || child == ifStmt->getElse()) {
        inElse = child == ifStmt->getElse();
        return ifStmt;
      }
    }
    if (const auto *next = parents[0].get<Stmt>())
      child = next;
    parents = context.getParents(parents[0]);
  }
  return nullptr;
}

} // namespace gradlint
