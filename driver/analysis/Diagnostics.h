// What a run produces, with locations already resolved to file/line/column,
// independent of Clang: every output format renders this.
#pragma once

#include "confirm/Confirmation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gradlint {

/// The check id of the findings --report-unused-suppressions adds; here so that
/// the outputs (SARIF's rule list) need not include the suppression machinery.
inline const char *const kUnusedSuppressionCheck = "gradlint-unused-suppression";

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

/// One replacement: bytes [offset, offset + length) of `file` become `replacement`.
/// Lines and columns are 1-based; the end is exclusive.
struct TextEdit {
  std::string file;
  unsigned offset = 0;
  unsigned length = 0;
  unsigned line = 0, column = 0, endLine = 0, endColumn = 0;
  std::string replacement;
  /// xxh3-64 of `file`'s contents as the analysis read them (the text the
  /// offsets refer to); --fix writes nothing when the file no longer has it.
  std::optional<uint64_t> contentHash;
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
  /// Holds only for values the code does not show; reported with --inconclusive.
  bool conditional = false;
};

struct FileError {
  std::string file;
  std::string message;
  unsigned line = 0; ///< 1-based; 0 when the error is about the whole file
  unsigned column = 0;
  /// An #include Clang could not find (the language server shows it on the line).
  bool includeNotFound = false;

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
  /// Said without failing the run (what the API model lacked in a file).
  std::vector<FileError> notes;
  unsigned files = 0;
  std::vector<std::string> fileNames; ///< the files analysed, as given
  /// Conditional findings left out (no --inconclusive or `Inconclusive: true`).
  unsigned hiddenConditional = 0;
};

} // namespace gradlint
