// Analyses one translation unit: parse with Clang, build the training-loop
// model, run the enabled checks, resolve the findings to file/line/column.
#pragma once

#include "CompilationSetup.h"
#include "Diagnostics.h"

#include "kernels/Backend.h"

#include <string>
#include <vector>

namespace gradlint {

struct FileAnalysis {
  std::vector<Diagnostic> diagnostics;
  std::vector<FileError> errors;
  bool usedApiModel = false;
  /// Real paths of the diagnostics' files, for de-duplication across TUs.
  std::vector<std::string> realPaths;
  /// --dump-model: the model, as text.
  std::string modelDump;
};

/// `displayName` is the path as the user wrote it.
/// Where --confirm runs its numbers (null: no confirmation).
struct ConfirmTarget {
  const runtime::Backend *backend = nullptr;
  std::string name;
};

FileAnalysis analyseFile(const std::string &displayName, CompilationSetup &setup,
                         const std::vector<std::string> &enabledChecks, bool dumpModel = false,
                         const ConfirmTarget &confirm = {});

} // namespace gradlint
