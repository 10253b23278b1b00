// Output formats; each lives in its own file.
#pragma once

#include "Diagnostics.h"

#include <ostream>

namespace gradlint {

/// clang's format: file:line:col: warning: message [check], source line, caret, notes.
void writeText(const RunResult &result, std::ostream &out, bool color);
/// The JSON contract: {"diagnostics": [...], "errors": [...], "files": N}.
void writeJson(const RunResult &result, std::ostream &out);

} // namespace gradlint
