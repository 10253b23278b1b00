#include "checks/FixIts.h"

#include "model/ApiCalls.h"
#include "model/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <functional>

namespace gradlint {
namespace fixits {

namespace {

/// The blocks whose statements run once per micro-batch.
bool isMicroBatchBlock(const clang::Stmt *block, const TrainingLoop &loop) {
  if (block == loopBody(loop.loop))
    return true;
  if (loop.window && block == loopBody(loop.window->guard.innerLoop))
    return true;
  return loop.kind == LoopKind::StepFunction && loop.function && block == loop.function->getBody();
}

/// A statement's extent in its file, as offsets, and whether it stands on
/// lines of its own (then [lineBegin, lineEnd) covers those lines, newline
/// and trailing comment included).
struct Extent {
  clang::FileID file;
  unsigned begin = 0, end = 0;
  bool wholeLines = false;
  unsigned lineBegin = 0, lineEnd = 0;
  unsigned blankAfter = 0; ///< a blank line after the statement's lines to delete with them
  llvm::StringRef buffer;
};

std::optional<Extent> statementExtent(const clang::Stmt *statement, clang::ASTContext &context) {
  const clang::SourceManager &sm = context.getSourceManager();
  clang::SourceLocation begin = statement->getBeginLoc(), last = statement->getEndLoc();
  if (begin.isInvalid() || last.isInvalid() || begin.isMacroID() || last.isMacroID())
    return std::nullopt;
  clang::SourceLocation afterLast =
      clang::Lexer::getLocForEndOfToken(last, 0, sm, context.getLangOpts());
  if (afterLast.isInvalid())
    return std::nullopt;
  Extent extent;
  auto [file, beginOffset] = sm.getDecomposedLoc(begin);
  auto [endFile, endOffset] = sm.getDecomposedLoc(afterLast);
  if (file != endFile || endOffset < beginOffset)
    return std::nullopt;
  bool invalid = false;
  extent.buffer = sm.getBufferData(file, &invalid);
  if (invalid)
    return std::nullopt;
  llvm::StringRef text = extent.buffer;
  extent.file = file;
  extent.begin = beginOffset;
  // An expression statement's ';' is not part of its range.
  unsigned end = endOffset;
  while (end < text.size() && (text[end] == ' ' || text[end] == '\t'))
    ++end;
  extent.end = end < text.size() && text[end] == ';' ? end + 1 : endOffset;

  unsigned lineBegin = extent.begin;
  while (lineBegin > 0 && (text[lineBegin - 1] == ' ' || text[lineBegin - 1] == '\t'))
    --lineBegin;
  unsigned lineEnd = extent.end;
  while (lineEnd < text.size() && (text[lineEnd] == ' ' || text[lineEnd] == '\t'))
    ++lineEnd;
  if (text.substr(lineEnd).starts_with("//"))
    lineEnd = std::min<size_t>(text.find('\n', lineEnd), text.size());
  if (lineEnd < text.size() && text[lineEnd] == '\r')
    ++lineEnd;
  bool endsLine = lineEnd >= text.size() || text[lineEnd] == '\n';
  if ((lineBegin == 0 || text[lineBegin - 1] == '\n') && endsLine) {
    extent.wholeLines = true;
    extent.lineBegin = lineBegin;
    extent.lineEnd = lineEnd < text.size() ? lineEnd + 1 : lineEnd;
    // Between two blank lines, one of them goes too, so no double gap is left.
    bool blankBefore = lineBegin >= 2 && text[lineBegin - 1] == '\n' && text[lineBegin - 2] == '\n';
    if (blankBefore && text.substr(extent.lineEnd).starts_with("\n"))
      extent.blankAfter = 1;
  }
  return extent;
}

clang::CharSourceRange charRange(const Extent &extent, unsigned begin, unsigned end,
                                 const clang::SourceManager &sm) {
  clang::SourceLocation start = sm.getLocForStartOfFile(extent.file);
  return clang::CharSourceRange::getCharRange(start.getLocWithOffset(begin),
                                              start.getLocWithOffset(end));
}

std::string indentationOf(const Extent &extent) {
  return extent.buffer.slice(extent.lineBegin, extent.begin).str();
}

/// The leading whitespace of the line that holds `offset`.
std::string lineIndentation(llvm::StringRef buffer, unsigned offset) {
  size_t start = buffer.rfind('\n', offset);
  start = start == llvm::StringRef::npos ? 0 : start + 1;
  size_t end = start;
  while (end < buffer.size() && (buffer[end] == ' ' || buffer[end] == '\t'))
    ++end;
  return buffer.slice(start, end).str();
}

/// The indentation of statements inside a new block for the unbraced branch
/// `target` of `branchOf`: the branch's own when it has a line of its own,
/// else the `if`'s plus two spaces.
std::string branchIndentation(const clang::IfStmt &branchOf, const Extent &target,
                              clang::ASTContext &context) {
  if (target.wholeLines)
    return indentationOf(target);
  unsigned ifOffset = context.getSourceManager().getFileOffset(branchOf.getBeginLoc());
  return lineIndentation(target.buffer, ifOffset) + "  ";
}

/// `text`'s lines with the leading `from` indentation replaced by `to`.
std::string reindent(llvm::StringRef text, const std::string &from, const std::string &to) {
  std::string out;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    if (line.starts_with(from))
      out += to + line.substr(from.size()).str();
    else
      out += line.str();
    if (text.size() > line.size())
      out += '\n';
    text = rest;
  }
  return out;
}

} // namespace

const clang::Stmt *eventStatement(const TrainingLoop &loop, const TrainingEvent &event,
                                  clang::ASTContext &context) {
  const clang::Stmt *node = event.stmt;
  if (!event.callChain.empty()) {
    // Only a helper that does nothing but gradient work may move as a whole.
    if (loop.reportLocation(event) != event.callChain.front().call->getBeginLoc())
      return nullptr;
    node = event.callChain.front().call;
  }
  // An `if` inside a loop over parameters moves with that loop; one between
  // the event and the micro-batch block guards it, and then it cannot move.
  bool guarded = false;
  while (node) {
    const clang::Stmt *parent = parentStmt(node, context);
    if (!parent || parent == loop.loop || (loop.window && parent == loop.window->guard.innerLoop))
      return nullptr;
    if (llvm::isa<clang::CompoundStmt>(parent) && isMicroBatchBlock(parent, loop))
      return guarded ? nullptr : node;
    if (llvm::isa<clang::IfStmt, clang::SwitchStmt, clang::ConditionalOperator,
                  clang::BinaryConditionalOperator>(parent))
      guarded = true;
    if (llvm::isa<clang::ForStmt, clang::CXXForRangeStmt, clang::WhileStmt, clang::DoStmt>(parent))
      guarded = false;
    node = parent;
  }
  return nullptr;
}

const clang::Stmt *unrelatedGuardStatement(const TrainingLoop &loop, const TrainingEvent &event,
                                           clang::ASTContext &context) {
  if (!event.guardedByUnrelatedCondition || event.condition != EventCondition::EveryMicroBatch ||
      !event.callChain.empty())
    return nullptr;
  const clang::IfStmt *guard = nullptr;
  const clang::Stmt *node = event.stmt;
  while (node) {
    const clang::Stmt *parent = parentStmt(node, context);
    if (!parent || parent == loop.loop || (loop.window && parent == loop.window->guard.innerLoop))
      return nullptr;
    if (llvm::isa<clang::CompoundStmt>(parent) && isMicroBatchBlock(parent, loop)) {
      if (node != guard)
        return nullptr;
      break;
    }
    if (const auto *branch = llvm::dyn_cast<clang::IfStmt>(parent)) {
      if (guard || branch->getElse() || branch->getThen() != node || branch->getInit() ||
          branch->getConditionVariable())
        return nullptr;
      guard = branch;
    } else if (!llvm::isa<clang::Expr, clang::CompoundStmt, clang::ForStmt, clang::CXXForRangeStmt,
                          clang::DeclStmt>(parent)) {
      return nullptr;
    }
    node = parent;
  }
  if (!guard)
    return nullptr;
  // The `if` must hold nothing else the window orders.
  const clang::SourceManager &sm = context.getSourceManager();
  clang::SourceRange range = guard->getSourceRange();
  for (const TrainingEvent &other : loop.events) {
    bool inside = !sm.isBeforeInTranslationUnit(other.loc, range.getBegin()) &&
                  !sm.isBeforeInTranslationUnit(range.getEnd(), other.loc);
    if (inside && (other.kind == EventKind::Backward || other.kind == EventKind::Step ||
                   other.kind == EventKind::LossComputation ||
                   other.kind == EventKind::GradBufferAdd || other.kind == EventKind::GradReset))
      return nullptr;
  }
  return guard;
}

const clang::IfStmt *soleGuardOf(const TrainingLoop &loop, const TrainingEvent &event,
                                 clang::ASTContext &context) {
  const clang::Stmt *statement = blockStatement(event, context);
  if (!statement)
    return nullptr;
  const clang::Stmt *parent = parentStmt(statement, context);
  if (const auto *block = llvm::dyn_cast_or_null<clang::CompoundStmt>(parent);
      block && block->size() == 1)
    parent = parentStmt(block, context);
  const auto *guard = llvm::dyn_cast_or_null<clang::IfStmt>(parent);
  if (!guard || guard->getElse() || guard->getInit() || guard->getConditionVariable() ||
      guard->getCond()->HasSideEffects(context))
    return nullptr;
  const clang::Stmt *block = parentStmt(guard, context);
  return block && llvm::isa<clang::CompoundStmt>(block) && isMicroBatchBlock(block, loop) ? guard
                                                                                          : nullptr;
}

bool inSameBlock(const clang::Stmt *a, const clang::Stmt *b, clang::ASTContext &context) {
  if (!a || !b)
    return false;
  const clang::Stmt *block = parentStmt(a, context);
  return block && llvm::isa<clang::CompoundStmt>(block) && block == parentStmt(b, context);
}

bool isTheCallAlone(const clang::Stmt *statement, const TrainingEvent &event,
                    clang::ASTContext &context) {
  return event.callChain.empty() && statementInBlock(event.stmt, context) == statement;
}

const clang::Stmt *blockStatement(const TrainingEvent &event, clang::ASTContext &context) {
  return event.callChain.empty() ? statementInBlock(event.stmt, context) : nullptr;
}

const clang::Stmt *statementInBlock(const clang::Stmt *node, clang::ASTContext &context) {
  while (node) {
    const clang::Stmt *parent = parentStmt(node, context);
    if (parent && llvm::isa<clang::CompoundStmt>(parent))
      return node;
    // `if (boundary) optimizer.step();`: the branch is a block of one.
    if (const auto *branch = llvm::dyn_cast_or_null<clang::IfStmt>(parent))
      if (node == branch->getThen() || node == branch->getElse())
        return node;
    if (!parent || !llvm::isa<clang::Expr>(parent))
      return nullptr;
    node = parent;
  }
  return nullptr;
}

namespace {

/// Puts the lines `indentText(indentation of the anchor)` returns just before
/// or after `anchor`; an unbraced `if` branch becomes a block. `movedRange`:
/// the offsets of a statement that moves there (it must not hold the branch's
/// opening).
std::optional<SourceEdit>
placeNextTo(const clang::Stmt *anchor, bool after, const Extent &target,
            const std::function<std::string(const std::string &)> &indentText,
            std::optional<std::pair<unsigned, unsigned>> movedRange, clang::ASTContext &context) {
  const clang::SourceManager &sm = context.getSourceManager();
  const auto *branchOf = llvm::dyn_cast_or_null<clang::IfStmt>(parentStmt(anchor, context));
  if (branchOf && !(anchor == branchOf->getThen() || anchor == branchOf->getElse()))
    branchOf = nullptr;
  if (!branchOf && !target.wholeLines)
    return std::nullopt;
  std::string indentation =
      branchOf ? branchIndentation(*branchOf, target, context) : indentationOf(target);
  std::string text = indentText(indentation);
  if (branchOf) {
    // `if (c) step();` becomes a block: `if (c) {\n step();\n text\n }`.
    clang::SourceLocation opener =
        anchor == branchOf->getThen() ? branchOf->getRParenLoc() : branchOf->getElseLoc();
    if (opener.isInvalid() || opener.isMacroID())
      return std::nullopt;
    unsigned from =
        sm.getFileOffset(clang::Lexer::getLocForEndOfToken(opener, 0, sm, context.getLangOpts()));
    if (from > target.begin ||
        (movedRange && movedRange->first < target.end && from < movedRange->second))
      return std::nullopt;
    std::string anchorLine =
        indentation + target.buffer.slice(target.begin, target.end).str() + "\n";
    std::string block = " {\n" + (after ? anchorLine + text : text + anchorLine) +
                        lineIndentation(target.buffer, sm.getFileOffset(branchOf->getBeginLoc())) +
                        "}";
    return SourceEdit{charRange(target, from, target.end, sm), block};
  }
  unsigned at = after ? target.lineEnd : target.lineBegin;
  return SourceEdit{charRange(target, at, at, sm), text};
}

} // namespace

std::optional<FindingFix> moveStatement(const clang::Stmt *statement, const clang::Stmt *anchor,
                                        bool after, std::string description,
                                        clang::ASTContext &context) {
  if (!statement || !anchor)
    return std::nullopt;
  std::optional<Extent> moved = statementExtent(statement, context);
  std::optional<Extent> target = statementExtent(anchor, context);
  if (!moved || !target || moved->file != target->file)
    return std::nullopt;
  // The anchor must lie outside the moved text.
  if (target->begin < moved->end && moved->begin < target->end)
    return std::nullopt;
  const clang::SourceManager &sm = context.getSourceManager();
  FindingFix fix;
  fix.description = std::move(description);
  auto movedText = [&](const std::string &indentation) {
    if (moved->wholeLines) {
      llvm::StringRef lines = moved->buffer.slice(moved->lineBegin, moved->lineEnd);
      std::string text = reindent(lines, indentationOf(*moved), indentation);
      if (text.empty() || text.back() != '\n')
        text += '\n';
      return text;
    }
    return indentation + moved->buffer.slice(moved->begin, moved->end).str() + "\n";
  };
  if (moved->wholeLines) {
    fix.edits.push_back(
        {charRange(*moved, moved->lineBegin, moved->lineEnd + moved->blankAfter, sm), ""});
  } else {
    unsigned end = moved->end;
    while (end < moved->buffer.size() && moved->buffer[end] == ' ')
      ++end;
    fix.edits.push_back({charRange(*moved, moved->begin, end, sm), ""});
  }
  std::optional<SourceEdit> placed = placeNextTo(anchor, after, *target, movedText,
                                                 std::make_pair(moved->begin, moved->end), context);
  if (!placed)
    return std::nullopt;
  fix.edits.push_back(*placed);
  return fix;
}

std::optional<SourceEdit> insertStatement(const clang::Stmt *anchor, bool after,
                                          const std::string &statement,
                                          clang::ASTContext &context) {
  if (!anchor)
    return std::nullopt;
  std::optional<Extent> target = statementExtent(anchor, context);
  if (!target)
    return std::nullopt;
  return placeNextTo(
      anchor, after, *target,
      [&](const std::string &indentation) { return indentation + statement + "\n"; }, std::nullopt,
      context);
}

std::optional<std::vector<SourceEdit>>
appendInScope(const clang::Stmt *node, const std::string &statement, clang::ASTContext &context) {
  // Climb to the expression statement: the node whose parent is not an expression.
  const clang::Stmt *parent = parentStmt(node, context);
  while (node && parent && llvm::isa<clang::Expr>(parent)) {
    node = parent;
    parent = parentStmt(node, context);
  }
  if (!node || !parent)
    return std::nullopt;
  if (llvm::isa<clang::CompoundStmt>(parent)) {
    std::optional<SourceEdit> edit = insertStatement(node, /*after=*/true, statement, context);
    if (!edit)
      return std::nullopt;
    return std::vector<SourceEdit>{*edit};
  }
  bool body = false;
  if (const auto *forStmt = llvm::dyn_cast<clang::ForStmt>(parent))
    body = forStmt->getBody() == node;
  else if (const auto *range = llvm::dyn_cast<clang::CXXForRangeStmt>(parent))
    body = range->getBody() == node;
  else if (const auto *whileStmt = llvm::dyn_cast<clang::WhileStmt>(parent))
    body = whileStmt->getBody() == node;
  else if (const auto *branch = llvm::dyn_cast<clang::IfStmt>(parent))
    body = branch->getThen() == node || branch->getElse() == node;
  if (!body)
    return std::nullopt;
  const clang::SourceManager &sm = context.getSourceManager();
  clang::SourceLocation begin = node->getBeginLoc(), end = node->getEndLoc();
  if (begin.isInvalid() || end.isInvalid() || begin.isMacroID() || end.isMacroID())
    return std::nullopt;
  clang::SourceLocation afterSemi =
      clang::Lexer::findLocationAfterToken(end, clang::tok::semi, sm, context.getLangOpts(), false);
  if (afterSemi.isInvalid())
    return std::nullopt;
  return std::vector<SourceEdit>{
      {clang::CharSourceRange::getCharRange(begin, begin), "{ "},
      {clang::CharSourceRange::getCharRange(afterSemi, afterSemi), " " + statement + " }"}};
}

std::optional<SourceEdit> insertBlockCopyAfter(const clang::Stmt *anchor, const std::string &prefix,
                                               const clang::CompoundStmt *copied,
                                               clang::ASTContext &context) {
  if (!anchor || !copied ||
      !llvm::isa_and_nonnull<clang::CompoundStmt>(parentStmt(anchor, context)))
    return std::nullopt;
  std::optional<Extent> target = statementExtent(anchor, context);
  std::optional<Extent> opening = statementExtent(copied, context);
  if (!target || !opening || !target->wholeLines || opening->file != target->file)
    return std::nullopt;
  std::string from = lineIndentation(opening->buffer, opening->begin);
  std::string indentation = indentationOf(*target);
  // The statements alone, each on lines of its own: the comments stay behind.
  std::string text = indentation + prefix + "{\n";
  for (const clang::Stmt *statement : copied->body()) {
    std::optional<Extent> extent = statementExtent(statement, context);
    if (!extent || !extent->wholeLines)
      return std::nullopt;
    llvm::StringRef lines = extent->buffer.slice(extent->lineBegin, extent->end);
    text += reindent(lines, from, indentation) + "\n";
  }
  text += indentation + "}\n";
  const clang::SourceManager &sm = context.getSourceManager();
  return SourceEdit{charRange(*target, target->lineEnd, target->lineEnd, sm), text};
}

std::optional<SourceEdit> deleteStatement(const clang::Stmt *statement,
                                          clang::ASTContext &context) {
  std::optional<Extent> extent = statementExtent(statement, context);
  if (!extent)
    return std::nullopt;
  const clang::SourceManager &sm = context.getSourceManager();
  // The unbraced branch of an `if` must not leave the `if` without a body.
  if (llvm::isa_and_nonnull<clang::IfStmt>(parentStmt(statement, context)))
    return SourceEdit{charRange(*extent, extent->begin, extent->end, sm), "{}"};
  if (extent->wholeLines)
    return SourceEdit{
        charRange(*extent, extent->lineBegin, extent->lineEnd + extent->blankAfter, sm), ""};
  return SourceEdit{charRange(*extent, extent->begin, extent->end, sm), ""};
}

std::optional<SourceEdit> replaceExpr(const clang::Expr *expr, std::string replacement) {
  clang::SourceRange range = expr->getSourceRange();
  if (range.isInvalid() || range.getBegin().isMacroID() || range.getEnd().isMacroID())
    return std::nullopt;
  return SourceEdit{clang::CharSourceRange::getTokenRange(range), std::move(replacement)};
}

std::optional<std::string> operandText(const clang::Expr *expr, clang::ASTContext &context) {
  clang::SourceRange range = expr->getSourceRange();
  if (range.isInvalid() || range.getBegin().isMacroID() || range.getEnd().isMacroID())
    return std::nullopt;
  std::string text = clang::Lexer::getSourceText(clang::CharSourceRange::getTokenRange(range),
                                                 context.getSourceManager(), context.getLangOpts())
                         .str();
  if (text.empty())
    return std::nullopt;
  const clang::Expr *bare = stripImplicit(expr);
  // A named or functional cast binds like a call: `static_cast<int>(n)`.
  bool primary =
      llvm::isa<clang::DeclRefExpr, clang::IntegerLiteral, clang::FloatingLiteral, clang::ParenExpr,
                clang::MemberExpr, clang::CXXNamedCastExpr, clang::CXXFunctionalCastExpr>(bare);
  if (const auto *call = llvm::dyn_cast<clang::CallExpr>(bare)) {
    const auto *op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call);
    primary = !op || op->getOperator() == clang::OO_Call ||
              op->getOperator() == clang::OO_Subscript || op->getOperator() == clang::OO_Arrow;
  }
  if (llvm::isa<clang::CXXMemberCallExpr>(bare))
    primary = true;
  return primary ? text : "(" + text + ")";
}

std::optional<SourceEdit> dropOptionDivision(const clang::Expr *site, llvm::StringRef setter,
                                             clang::ASTContext &context) {
  const auto *division =
      llvm::dyn_cast_or_null<clang::BinaryOperator>(site ? site->IgnoreParens() : nullptr);
  if (!division || division->getOpcode() != clang::BO_Div)
    return std::nullopt;
  // `wd / (N * W)` divides by more than N: dropping it all would drop W too.
  if (llvm::isa<clang::BinaryOperator>(division->getRHS()->IgnoreParenImpCasts()))
    return std::nullopt;
  // Up through parentheses and conversions to the call that takes it.
  const clang::Stmt *node = site;
  const clang::Stmt *parent = nullptr;
  for (int depth = 0; depth < 6; ++depth) {
    parent = parentStmt(node, context);
    if (!parent ||
        !llvm::isa<clang::ParenExpr, clang::ImplicitCastExpr, clang::CXXFunctionalCastExpr,
                   clang::MaterializeTemporaryExpr, clang::CXXBindTemporaryExpr>(parent))
      break;
    node = parent;
  }
  bool taken = false;
  if (const auto *call = llvm::dyn_cast_or_null<clang::CallExpr>(parent))
    if (const clang::FunctionDecl *callee = call->getDirectCallee())
      taken = callee->getIdentifier() &&
              (callee->getName() == setter || callee->getName() == ("set_" + setter).str());
  if (const auto *construct = llvm::dyn_cast_or_null<clang::CXXConstructExpr>(parent))
    taken = setter == "lr" && construct->getNumArgs() >= 1 &&
            construct->getConstructor()->getParent()->getName().ends_with("Options");
  if (!taken)
    return std::nullopt;
  std::optional<std::string> kept = operandText(division->getLHS(), context);
  if (!kept)
    return std::nullopt;
  return replaceExpr(site, *kept);
}

namespace {

unsigned readsOf(const clang::Stmt *node, const clang::VarDecl *var) {
  if (!node)
    return 0;
  unsigned reads = 0;
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(node))
    reads += ref->getDecl() == var;
  for (const clang::Stmt *child : node->children())
    reads += readsOf(child, var);
  return reads;
}

/// Whether `var` (a local or parameter) is named `expected` times in its function.
bool namedOnly(const clang::VarDecl *var, unsigned expected) {
  const auto *function = llvm::dyn_cast_or_null<clang::FunctionDecl>(var->getDeclContext());
  return function && function->getBody() && readsOf(function->getBody(), var) == expected;
}

} // namespace

std::optional<SourceEdit> dropStoredDivision(const clang::Expr *site, clang::ASTContext &context) {
  const auto *division =
      llvm::dyn_cast_or_null<clang::BinaryOperator>(site ? site->IgnoreParens() : nullptr);
  if (!division || division->getBeginLoc().isMacroID() || division->getEndLoc().isMacroID() ||
      llvm::isa<clang::BinaryOperator>(division->getRHS()->IgnoreParenImpCasts()))
    return std::nullopt;
  if (division->getOpcode() == clang::BO_DivAssign) {
    // `wd /= d;` as a statement of its own; `wd` read once more, by the setter.
    const auto *target =
        llvm::dyn_cast<clang::DeclRefExpr>(division->getLHS()->IgnoreParenImpCasts());
    const auto *var = target ? llvm::dyn_cast<clang::VarDecl>(target->getDecl()) : nullptr;
    if (!var || !var->isLocalVarDeclOrParm() || !namedOnly(var, 2) ||
        !llvm::isa_and_nonnull<clang::CompoundStmt>(parentStmt(division, context)))
      return std::nullopt;
    return deleteStatement(division, context);
  }
  if (division->getOpcode() != clang::BO_Div)
    return std::nullopt;
  // `T v = x / d;`: the division is the whole initializer of a local read once.
  clang::DynTypedNodeList parents = context.getParents(*site);
  while (!parents.empty() && parents[0].get<clang::ImplicitCastExpr>())
    parents = context.getParents(parents[0]);
  const auto *var = parents.empty() ? nullptr : parents[0].get<clang::VarDecl>();
  if (!var || !var->isLocalVarDecl() || !namedOnly(var, 1))
    return std::nullopt;
  clang::SourceRange kept = division->getLHS()->getSourceRange();
  std::string text = clang::Lexer::getSourceText(clang::CharSourceRange::getTokenRange(kept),
                                                 context.getSourceManager(), context.getLangOpts())
                         .str();
  if (text.empty())
    return std::nullopt;
  return replaceExpr(site, text);
}

} // namespace fixits
} // namespace gradlint
