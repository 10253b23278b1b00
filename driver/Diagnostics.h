// What a run produces, with locations already resolved to file/line/column,
// independent of Clang: every output format renders this.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gradlint {

struct Location {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  std::string sourceLine; ///< the text of the line, for carets
};

struct DiagnosticNote {
  Location location;
  std::string message;
};

/// What the reference runtime measured for a diagnosis (gradlint --confirm).
struct Confirmation {
  std::string verdict;  ///< "confirmed", "not-confirmed" or "not-executable"
  std::string backend;  ///< "cpu" or "cuda"
  int accumulationSteps = 0;
  int worldSize = 0;
  double relErrorBuggy = 0.0;
  double relErrorFixed = 0.0;
  double gradNormRatio = 0.0;
  double allreduceCallsPerStep = 0.0;
  std::string detail;   ///< one sentence with the figures
  /// --plot: parameter error vs the reference before step 1 and after each of
  /// K optimizer steps, as a fraction of the reference's distance travelled.
  std::vector<double> parameterErrorBuggy;
  std::vector<double> parameterErrorFixed;
};

/// One replacement: bytes [offset, offset + length) of `file` become `replacement`.
/// Lines and columns are 1-based; the end is exclusive.
struct TextEdit {
  std::string file;
  unsigned offset = 0;
  unsigned length = 0;
  unsigned line = 0, column = 0, endLine = 0, endColumn = 0;
  std::string replacement;
};

/// A fix-it. Unsafe fixes (they may change behaviour the check cannot see)
/// apply only with --unsafe-fixes, as in ruff.
struct FixIt {
  std::string description;
  bool safe = true;
  std::vector<TextEdit> edits;
};

struct Diagnostic {
  std::string check;
  std::string severity;
  Location location;
  std::string message;
  std::vector<DiagnosticNote> notes;
  std::optional<Confirmation> confirmation;
  std::optional<FixIt> fix;
  bool fixApplied = false; ///< --fix wrote it; the finding no longer counts
};

struct FileError {
  std::string file;
  std::string message;
  unsigned line = 0;   ///< 1-based; 0 when the error is about the whole file
  unsigned column = 0;

  /// "file", "file:line" or "file:line:column", as compilers print it.
  std::string where() const {
    std::string out = file;
    if (line)
      out += ":" + std::to_string(line);
    if (line && column)
      out += ":" + std::to_string(column);
    return out;
  }
};

struct RunResult {
  std::vector<Diagnostic> diagnostics;
  std::vector<FileError> errors;
  unsigned files = 0;
};

} // namespace gradlint
