// gradlint --plot=<file.svg>: one panel per confirmed diagnosis with the
// parameter error over K optimizer steps of the loop as written, the fixed
// loop and the large-batch reference, as a self-contained SVG.
#pragma once

#include "confirm/Confirmation.h"

#include <string>
#include <vector>

namespace gradlint {

/// One diagnosis to draw: where it is, which check, what was measured.
struct PlotPanel {
  std::string file;
  unsigned line = 0;
  std::string check;
  const Confirmation *confirmation = nullptr;
  /// The check's confirmation plan counts all-reduces: a sync whose values
  /// match shows the communication instead of a flat error.
  bool countsAllReduces = false;
};

/// The SVG document for the panels whose confirmation carries a parameter
/// trace (the others are left out).
std::string renderPlot(const std::vector<PlotPanel> &panels);

} // namespace gradlint
