// Helpers shared by the model unit tests: parse a code string against the
// bundled LibTorch API model, build the TrainingLoopModel, and locate events
// in the source by searching the code text.
#pragma once

#include "model/GuardPatterns.h"
#include "model/ModelBuilder.h"
#include "model/TrainingLoopModel.h"
#include "model/ValueFacts.h"

#include "clang/Frontend/ASTUnit.h"

#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace gradlint {

// gtest printers, so failures show names instead of bytes.
void PrintTo(EventKind kind, std::ostream *os);
void PrintTo(EventCondition cond, std::ostream *os);
void PrintTo(GuardForm form, std::ostream *os);
void PrintTo(ReduceOpKind op, std::ostream *os);
void PrintTo(LoopKind kind, std::ostream *os);

namespace test {

/// A 1-based line:column position in the analysed file.
struct Pos {
  unsigned line = 0;
  unsigned col = 0;
  bool operator==(const Pos &other) const { return line == other.line && col == other.col; }
  bool operator!=(const Pos &other) const { return !(*this == other); }
};
std::ostream &operator<<(std::ostream &os, const Pos &pos);

/// The torch (and c10d) includes plus a small `Net` module, prepended to
/// every snippet that uses LibTorch.
extern const char *const kTorchPrelude;

/// One parsed translation unit with its training-loop model.
class Analysis {
public:
  /// `withTorch`: prepend kTorchPrelude.
  explicit Analysis(const std::string &code, bool withTorch = true);
  ~Analysis();

  bool parsed() const;
  const TrainingLoopModel &model() const { return model_; }
  const std::vector<TrainingLoop> &loops() const { return model_.loops; }
  clang::ASTContext &context() const;
  ModelBuilder &builder() const { return *builder_; }

  /// Position of a location in the main file (spelling position).
  Pos pos(clang::SourceLocation loc) const;
  /// Position of the `occurrence`-th (0-based) occurrence of `needle` in the
  /// full source text; {0,0} when not found.
  Pos at(const std::string &needle, unsigned occurrence = 0) const;
  /// Position of `needle` located after the first occurrence of `anchor`.
  Pos atAfter(const std::string &anchor, const std::string &needle) const;
  /// Source text of an expression.
  std::string text(const clang::Expr *expr) const;
  /// A readable dump of the model, for failure messages.
  std::string dump() const;

  /// Every if-statement of the main file, in source order.
  std::vector<const clang::IfStmt *> ifStatements() const;
  /// The function of the main file with this name (first match).
  const clang::FunctionDecl *function(const std::string &name) const;

private:
  std::string source_;
  std::unique_ptr<clang::ASTUnit> ast_;
  std::unique_ptr<ModelBuilder> builder_;
  TrainingLoopModel model_;
};

/// Kinds of a loop's events, in order.
std::vector<EventKind> kindsOf(const TrainingLoop &loop);
/// Conditions of a loop's events, in order.
std::vector<EventCondition> conditionsOf(const TrainingLoop &loop);
/// The only event of that kind, or null (when none or several).
const TrainingEvent *onlyEvent(const TrainingLoop &loop, EventKind kind);
/// The name of a declaration, "" for null.
std::string nameOf(const clang::NamedDecl *decl);
/// Whether the events are sorted by strictly increasing order.
bool ordersIncrease(const TrainingLoop &loop);

} // namespace test
} // namespace gradlint

/// Parses `code` into `var` and stops the test on parse errors.
#define GL_ANALYSE(var, ...)                                                                       \
  ::gradlint::test::Analysis var(__VA_ARGS__);                                                     \
  ASSERT_TRUE(var.parsed()) << "the snippet does not parse (see stderr)"

/// Requires exactly one training loop in `analysis` and binds it to `var`.
#define GL_SINGLE_LOOP(var, analysis)                                                              \
  ASSERT_EQ((analysis).loops().size(), 1u) << (analysis).dump();                                   \
  const ::gradlint::TrainingLoop &var = (analysis).loops().front()
