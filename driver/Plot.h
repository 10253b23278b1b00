// gradlint --plot=<file.svg>: one panel per confirmed diagnosis with the
// parameter error over K optimizer steps of the loop as written, the fixed
// loop and the large-batch reference, as a self-contained SVG.
#pragma once

#include "Diagnostics.h"

#include <optional>
#include <string>

namespace gradlint {

/// The SVG document for the diagnoses of `result` that carry a parameter trace.
std::string renderPlot(const RunResult &result);

/// Writes renderPlot(result) to `path` atomically (temporary file + rename);
/// returns a one-line error when it cannot.
std::optional<std::string> writePlot(const RunResult &result, const std::string &path);

} // namespace gradlint
