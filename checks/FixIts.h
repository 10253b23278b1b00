// Source edits shared by the checks' fix-its: moving a statement of the loop
// body next to step(), wrapping or replacing an expression, deleting a
// statement. Each helper returns nothing when the code is not in the simple
// shape it can edit safely (macros, statements guarded by other conditions,
// helpers that also train); the check then offers no fix.
#pragma once

#include "model/TrainingLoopModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"

#include <optional>
#include <string>
#include <vector>

namespace gradlint {

/// `range` (a character range in one file) becomes `replacement`.
struct SourceEdit {
  clang::CharSourceRange range;
  std::string replacement;
};

struct FindingFix {
  std::string description;
  bool safe = true;
  std::vector<SourceEdit> edits;
};

namespace fixits {

/// The statement of the loop body that runs `event`: the event's own statement,
/// or the outermost helper call in the loop body when the event is inside a
/// helper that does only gradient work. Crosses loops over parameters, never an
/// `if` or the training loop itself.
const clang::Stmt *eventStatement(const TrainingLoop &loop, const TrainingEvent &event,
                                  clang::ASTContext &context);

/// The `if` standing in the micro-batch block that guards `event` by a
/// condition unrelated to the window (`if (cfg.clip) clip_grad_norm_(...)`,
/// `if (scheduler) scheduler->step();`), when it has no `else` and runs no
/// backward(), step() or loss: it may move as a whole. Null otherwise.
const clang::Stmt *unrelatedGuardStatement(const TrainingLoop &loop, const TrainingEvent &event,
                                           clang::ASTContext &context);

/// The `if` standing in the micro-batch block whose only statement is
/// `event`'s call (`if (i % N == 0) optimizer.zero_grad();`), when it has no
/// `else` and its condition no side effect: deleting it drops the event and
/// its guard. Null otherwise.
const clang::IfStmt *soleGuardOf(const TrainingLoop &loop, const TrainingEvent &event,
                                 clang::ASTContext &context);

/// Whether moving `statement` moves only the event's API call: not a helper
/// (which may do more than gradlint sees) nor a loop around the call. Fixes
/// that move more are marked unsafe.
bool isTheCallAlone(const clang::Stmt *statement, const TrainingEvent &event,
                    clang::ASTContext &context);

/// The statement of which `node` is the whole expression, when that statement
/// stands directly in a block.
const clang::Stmt *statementInBlock(const clang::Stmt *node, clang::ASTContext &context);

/// The statement that runs `event` (step(), a clip) directly in a block: no
/// helper call and no `if` in between.
const clang::Stmt *blockStatement(const TrainingEvent &event, clang::ASTContext &context);

/// Whether two statements stand in the same block.
bool inSameBlock(const clang::Stmt *a, const clang::Stmt *b, clang::ASTContext &context);

/// Moves `statement` (whole lines with their trailing comment when it stands
/// on lines of its own) to just before or after `anchor`, re-indented to it.
std::optional<FindingFix> moveStatement(const clang::Stmt *statement, const clang::Stmt *anchor,
                                        bool after, std::string description,
                                        clang::ASTContext &context);

/// Inserts the statement `statement` (source text ending in ';') on a line of
/// its own just before or after `anchor`, indented like it.
std::optional<SourceEdit> insertStatement(const clang::Stmt *anchor, bool after,
                                          const std::string &statement, clang::ASTContext &context);

/// Adds `statement` (source text ending in ';') right after the expression
/// statement `node` belongs to, in the same scope: on its own line in a block,
/// or with braces around both when it is the unbraced body of a loop or `if`.
std::optional<std::vector<SourceEdit>>
appendInScope(const clang::Stmt *node, const std::string &statement, clang::ASTContext &context);

/// Inserts, on lines of its own right after `anchor` (a statement standing
/// directly in a block), `prefix` followed by a copy of the braced block
/// `copied`, re-indented from the line that opens it to the anchor's.
std::optional<SourceEdit> insertBlockCopyAfter(const clang::Stmt *anchor, const std::string &prefix,
                                               const clang::CompoundStmt *copied,
                                               clang::ASTContext &context);

/// Deletes `statement` (its whole lines when it stands alone on them).
std::optional<SourceEdit> deleteStatement(const clang::Stmt *statement, clang::ASTContext &context);

/// Replaces the source of `expr` with `replacement`.
std::optional<SourceEdit> replaceExpr(const clang::Expr *expr, std::string replacement);

/// `x / d` handed straight to the option setter `setter(...)` (or, for "lr",
/// to an optimizer's options constructor, or `set_<setter>(...)`) becomes `x`. Nothing when the
/// division is stored in a variable other code may read too, or when `d` is
/// itself a product or quotient (it may hold more than N).
std::optional<SourceEdit> dropOptionDivision(const clang::Expr *site, llvm::StringRef setter,
                                             clang::ASTContext &context);

/// The division by `d` stored in a variable that only the option's setter
/// reads afterwards: `const double lr = base / d;` becomes `= base`, and the
/// statement `wd /= d;` is deleted. Nothing when the variable has another
/// reader (a log, a second optimizer) or `d` is a product or quotient.
std::optional<SourceEdit> dropStoredDivision(const clang::Expr *site, clang::ASTContext &context);

/// The source text of `expr`, parenthesised unless it is a primary expression
/// (name, literal, call, cast, member access, parenthesised).
std::optional<std::string> operandText(const clang::Expr *expr, clang::ASTContext &context);

} // namespace fixits
} // namespace gradlint
