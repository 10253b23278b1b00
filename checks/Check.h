// The interface every check implements, and what a check reports.
//
// A check is a small reader of the training-loop model (model/): it never
// walks the AST itself. One check per file; CheckRegistry.cpp registers each
// with one line.
#pragma once

#include "FixIts.h"
#include "model/TrainingLoopModel.h"
#include "model/ValueFacts.h"

#include "LoopProgram.h"

#include "clang/Basic/SourceManager.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gradlint {

struct FindingNote {
  clang::SourceLocation loc;
  std::string message;
};

struct Finding {
  std::string check;
  clang::SourceLocation loc;
  std::string message;
  std::vector<FindingNote> notes;
  std::optional<FindingFix> fix;
};

/// What a check sees of the translation unit besides the loop.
class CheckContext {
public:
  CheckContext(const ValueFacts &facts, std::vector<Finding> &out)
      : facts_(facts), out_(out) {}

  const ValueFacts &facts() const { return facts_; }
  clang::ASTContext &astContext() const { return facts_.context(); }
  const clang::SourceManager &sourceManager() const {
    return facts_.context().getSourceManager();
  }
  unsigned line(clang::SourceLocation loc) const;
  std::string text(const clang::Expr *expr) const { return facts_.text(expr); }
  void report(Finding finding) { out_.push_back(std::move(finding)); }

private:
  const ValueFacts &facts_;
  std::vector<Finding> &out_;
};

class Check {
public:
  explicit Check(std::string id) : id_(std::move(id)) {}
  virtual ~Check() = default;
  const std::string &id() const { return id_; }
  virtual void check(const TrainingLoop &loop, CheckContext &context) = 0;
  /// Applies this check's fix to the lowered loop, so that the runtime can
  /// run the loop as it would be after the fix (gradlint --confirm).
  virtual void fixProgram(runtime::LoopProgram &program) const = 0;

protected:
  Finding finding(clang::SourceLocation loc, std::string message) const {
    return Finding{id_, loc, std::move(message), {}, std::nullopt};
  }

private:
  std::string id_;
};

// Shared wording, so that every check describes windows the same way.

/// "N = accum_steps = 4"
std::string describeSteps(const TrainingLoop &loop);
/// The note that shows where the window's boundary is.
FindingNote windowNote(const TrainingLoop &loop, const CheckContext &context);

/// Program edits shared by the checks' fixes.
/// Index of the first step() that runs at the boundary (or of any step()).
size_t stepIndex(const runtime::LoopProgram &program);
/// Inserts `op` right before (or after) that step().
void insertAtStep(runtime::LoopProgram &program, runtime::LoopOp op, bool after);
/// Removes the ops for which `remove` is true.
void removeOps(runtime::LoopProgram &program,
               const std::function<bool(const runtime::LoopOp &)> &remove);

/// Every registered check, in registration order.
struct CheckFactory {
  std::string id;
  std::function<std::unique_ptr<Check>()> create;
};
const std::vector<CheckFactory> &allChecks();

} // namespace gradlint
