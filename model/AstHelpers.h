// Small questions about Clang AST nodes that several parts of the model ask.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <vector>

namespace gradlint {

/// Whether a statement ends in `continue`, `return` or `break` (a block: its
/// last statement), so that the code after an `if` around it runs only when
/// the condition is false.
bool endsWithJump(const clang::Stmt *stmt);

/// Whether `decl` is a declaration with this plain identifier (`size`, `lr`,
/// `vector`); false for null, operators and other special names.
bool isNamed(const clang::NamedDecl *decl, llvm::StringRef name);

/// The `continue`, `return` or `break` a statement ends with, or null.
const clang::Stmt *endingJump(const clang::Stmt *stmt);

/// for, while, do and range-for statements.
bool isLoop(const clang::Stmt *stmt);

/// The body of a loop statement; null for null or anything that is not a loop.
const clang::Stmt *loopBody(const clang::Stmt *loop);

/// The values of the `return` statements in `body`, in source order. Returns
/// of lambdas inside it belong to the lambda and are left out unless
/// `intoLambdas` is set.
std::vector<const clang::Expr *> returnedValues(const clang::Stmt *body, bool intoLambdas = false);

/// The initializer of a local variable (not a parameter, not a global), to read
/// through `const int denom = N * W;`; null for anything else.
const clang::Expr *localInitializer(const clang::ValueDecl *decl);

/// Whether `stmt` reads or writes `decl`.
bool refersTo(const clang::Stmt *stmt, const clang::ValueDecl *decl);

/// Whether `a` and `b` lie in the two branches of one `if` (then and else):
/// at most one of them runs each time.
bool inExclusiveBranches(const clang::Stmt *a, const clang::Stmt *b, clang::ASTContext &context);

/// The function as written in the file: a template instantiation's pattern,
/// else the function itself.
const clang::FunctionDecl *writtenFunction(const clang::FunctionDecl *function);

/// The statement directly above `stmt` in the AST, or null at a function's
/// body or a declaration.
const clang::Stmt *parentStmt(const clang::Stmt *stmt, clang::ASTContext &context);

/// `lhs = rhs` as a statement (built-in or an `operator=` call): its two
/// sides; false for anything else.
bool assignmentSides(const clang::Stmt *statement, const clang::Expr *&lhs,
                     const clang::Expr *&rhs);

/// The function whose body holds `stmt`; null inside a lambda.
const clang::FunctionDecl *enclosingFunction(const clang::Stmt *stmt, clang::ASTContext &context);

/// The nearest `if` whose branch holds `stmt` in its function, and whether
/// that branch is the else branch.
const clang::IfStmt *enclosingIf(const clang::Stmt *stmt, clang::ASTContext &context, bool &inElse);

} // namespace gradlint
