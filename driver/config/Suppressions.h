// NOLINT comments, with clang-tidy's syntax and meaning: `// NOLINT`,
// `// NOLINT(check, glob-*)`, `// NOLINTNEXTLINE(...)` and
// `// NOLINTBEGIN(...)` ... `// NOLINTEND(...)` blocks. They are applied to the
// resolved diagnostics after analysis, so every output format sees the same
// split into reported and suppressed findings.
#pragma once

#include "driver/analysis/Diagnostics.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gradlint {

struct SuppressionFile;

class SuppressionIndex {
public:
  /// `registeredChecks`: every check gradlint has (tells a gradlint check name
  /// from a misspelt one); `enabledChecks`: those that ran (a comment naming
  /// only disabled checks cannot be judged unused).
  SuppressionIndex(std::vector<std::string> registeredChecks,
                   std::vector<std::string> enabledChecks);
  ~SuppressionIndex();

  /// Whether a NOLINT comment of the diagnostic's file silences it. `path` is
  /// where the file can be opened (its real path); the file is read once.
  /// A file that cannot be read suppresses nothing.
  bool suppresses(const Diagnostic &diagnostic, const std::string &path);

  /// Takes `text` (an editor's unsaved buffer) as the contents of `path`
  /// instead of reading the file; call before anything else reads `path`.
  void setFileContents(const std::string &path, const std::string &displayName, std::string text);

  /// Reads an analysed input file so that its directive errors and its unused
  /// suppressions are reported even when it has no finding.
  void addInputFile(const std::string &path, const std::string &displayName);

  /// Unmatched NOLINTBEGIN / NOLINTEND comments of every file read, one error
  /// each, naming the file and line.
  std::vector<FileError> directiveErrors() const;

  /// One finding per NOLINT comment of an input file that names a gradlint
  /// check (an `accum-*` id or glob) for which it suppressed nothing. A bare
  /// NOLINT is never reported: it may be meant for clang-tidy.
  std::vector<Diagnostic> unusedSuppressions() const;

private:
  SuppressionFile &load(const std::string &path, const std::string &displayName,
                        std::string *contents = nullptr);

  std::vector<std::string> registeredChecks_;
  std::vector<std::string> enabledChecks_;
  std::map<std::string, std::unique_ptr<SuppressionFile>> files_; ///< by path
  std::vector<std::string> order_; ///< paths in the order they were read
};

/// clang-tidy's check globs in NOLINT lists: `*` matches any run of characters.
bool matchesCheckGlob(const std::string &glob, const std::string &checkId);

} // namespace gradlint
