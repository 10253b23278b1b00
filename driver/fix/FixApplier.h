// --fix, --fix-dry-run and --export-fixes: choose the fix-its to apply
// (safe ones, unsafe ones only when asked), refuse fixes whose edits overlap
// an already chosen fix, and write each changed file atomically.
#pragma once

#include "driver/analysis/Diagnostics.h"

#include <optional>
#include <string>
#include <vector>

namespace gradlint {

struct FixSettings {
  bool apply = false;         ///< --fix
  bool dryRun = false;        ///< --fix-dry-run
  bool includeUnsafe = false; ///< --unsafe-fixes
  std::string exportFile;     ///< --export-fixes=<file>
};

struct FixReport {
  unsigned applied = 0; ///< fixes written (or, in a dry run, that would be)
  unsigned filesChanged = 0;
  unsigned skippedUnsafe = 0;  ///< unsafe fixes left out (no --unsafe-fixes)
  unsigned refusedOverlap = 0; ///< fixes whose edits overlap a chosen fix's
  std::string diff;            ///< --fix-dry-run: a unified diff of every change
  std::vector<FileError> errors;
};

/// Applies (or with dryRun, only diffs) the chosen fixes of `result` and marks
/// the applied diagnostics; writes the export file when asked.
FixReport processFixes(RunResult &result, const FixSettings &settings);

/// A unified diff of `before` -> `after` (3 lines of context), "" when equal.
std::string unifiedDiff(const std::string &path, const std::string &before,
                        const std::string &after);

} // namespace gradlint
