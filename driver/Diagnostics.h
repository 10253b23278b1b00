// What a run produces, with locations already resolved to file/line/column,
// independent of Clang: every output format renders this.
#pragma once

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

struct Diagnostic {
  std::string check;
  std::string severity;
  Location location;
  std::string message;
  std::vector<DiagnosticNote> notes;
};

struct FileError {
  std::string file;
  std::string message;
};

struct RunResult {
  std::vector<Diagnostic> diagnostics;
  std::vector<FileError> errors;
  unsigned files = 0;
};

} // namespace gradlint
