// The interface every check implements, and what a check reports.
//
// A check is a small reader of the training-loop model (model/): it never
// walks the AST itself, and it knows nothing of how a finding is confirmed
// (confirm/) or shown (driver/). One check per file, which registers itself
// with one GRADLINT_REGISTER_CHECK line.
#pragma once

#include "checks/ConfirmationPlan.h"
#include "checks/FixIts.h"
#include "model/TrainingLoopModel.h"
#include "model/ValueFacts.h"

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
  /// True only for some values the code does not show (a batch count the
  /// model cannot know): hidden unless --inconclusive, and marked in every format.
  bool conditional = false;
};

/// What a check sees of the translation unit besides the loop.
class CheckContext {
public:
  CheckContext(const ValueFacts &facts, std::vector<Finding> &out) : facts_(facts), out_(out) {}

  const ValueFacts &facts() const { return facts_; }
  clang::ASTContext &astContext() const { return facts_.context(); }
  const clang::SourceManager &sourceManager() const { return facts_.context().getSourceManager(); }
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
  /// What --confirm runs and measures for this check's findings (every check
  /// declares one; the default plan is `return {};`).
  virtual ConfirmationPlan confirmation() const = 0;

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

/// Every registered check, ordered by the order each registration gives (the
/// order the checks were added in: --list-checks and the findings of one loop
/// follow it).
struct CheckFactory {
  std::string id;
  std::function<std::unique_ptr<Check>()> create;
  int order = 0;
};
const std::vector<CheckFactory> &allChecks();

/// The confirmation plan of the check registered as `id` (a default plan,
/// with the id, for an id no check has).
ConfirmationPlan confirmationPlanOf(const std::string &id);

/// Adds a check to allChecks(); use GRADLINT_REGISTER_CHECK, not this.
struct CheckRegistration {
  CheckRegistration(int order, const char *id, std::function<std::unique_ptr<Check>()> create);
};

} // namespace gradlint

/// The one line that registers a check, at the end of the check's own file:
///   GRADLINT_REGISTER_CHECK(MisplacedZeroGradCheck, "accum-misplaced-zero-grad", 1)
/// The anchor variable lets the registry pull the check's object file out of
/// the static library (CMake generates the list of anchors from checks/*Check.cpp).
#define GRADLINT_REGISTER_CHECK(CheckClass, id, order)                                             \
  static const ::gradlint::CheckRegistration CheckClass##Registration(                             \
      order, id, [] { return std::unique_ptr<::gradlint::Check>(new CheckClass(id)); });           \
  int CheckClass##Anchor = 0;
