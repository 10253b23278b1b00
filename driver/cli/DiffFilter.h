// Pull-request mode: keep only the findings on lines a diff adds or changes
// (clang-tidy-diff's behaviour, built in). --diff=<revision range> asks git;
// --diff-file=<patch> (or - for stdin) reads a unified diff.
#pragma once

#include "driver/analysis/Diagnostics.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gradlint {

class ChangedLines {
public:
  /// Parses a unified diff; paths are taken relative to `root`.
  static ChangedLines parse(const std::string &diff, const std::string &root);

  /// Whether line `line` of `file` (any spelling of its path) was added or changed.
  bool contains(const std::string &file, unsigned line) const;
  /// The C++ sources the diff touches (absolute paths), in diff order.
  std::vector<std::string> changedSources() const;

private:
  std::map<std::string, std::set<unsigned>> lines_; ///< real path -> new-file lines
  std::vector<std::string> order_;
};

/// Reads the diff of --diff=<range> (via git, in the current directory's work
/// tree) or --diff-file=<path or ->. Returns a one-line error on failure.
std::optional<std::string> loadChangedLines(const std::string &range, const std::string &patchFile,
                                            ChangedLines &out);

/// Drops the diagnostics that are not on changed lines.
void keepChangedLines(std::vector<Diagnostic> &diagnostics, const ChangedLines &changed);

} // namespace gradlint
