#include "confirm/Plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace gradlint {

namespace {

constexpr double kWidth = 760, kPanelHeight = 270;
/// The y axis spans at least 1% of the reference's distance travelled.
constexpr double kSmallestRange = 0.01;
constexpr double kLeft = 70, kRight = 20, kTop = 58, kBottom = 40;

std::string escapeXml(const std::string &text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    default:
      // Control characters are not allowed in XML 1.0.
      if (static_cast<unsigned char>(c) >= 0x20 || c == '\t')
        out += c;
    }
  }
  return out;
}

std::string number(const char *pattern, double value) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

/// The smallest 1, 2 or 5 x 10^k at or above `value`.
double niceCeiling(double value) {
  if (!(value > 0) || !std::isfinite(value))
    return 1.0;
  double magnitude = std::pow(10.0, std::floor(std::log10(value)));
  for (double mantissa : {1.0, 2.0, 5.0, 10.0})
    if (mantissa * magnitude >= value * (1 - 1e-12))
      return mantissa * magnitude;
  return 10 * magnitude;
}

std::string polyline(const std::vector<double> &values, double x0, double y0, double xStep,
                     double yScale, const char *style) {
  std::ostringstream points;
  for (size_t k = 0; k < values.size(); ++k) {
    double v = std::isfinite(values[k]) ? values[k] : 0.0;
    points << (k ? " " : "") << number("%.1f", x0 + k * xStep) << ','
           << number("%.1f", y0 - v * yScale);
  }
  return "<polyline fill=\"none\" " + std::string(style) + " points=\"" + points.str() + "\"/>\n";
}

void drawPanel(std::ostringstream &svg, const PlotPanel &panel, double top) {
  const Confirmation &c = *panel.confirmation;
  const std::vector<double> &buggy = c.parameterErrorBuggy, &fixed = c.parameterErrorFixed;
  size_t steps = std::max(buggy.size(), fixed.size());
  steps = steps > 1 ? steps - 1 : 1;
  double yMax = 0.0;
  for (double v : buggy)
    yMax = std::max(yMax, std::isfinite(v) ? v : 0.0);
  for (double v : fixed)
    yMax = std::max(yMax, std::isfinite(v) ? v : 0.0);
  // Float noise (a loop whose values match, ~1e-7) must not fill the panel.
  yMax = niceCeiling(std::max(yMax, kSmallestRange));
  double plotWidth = kWidth - kLeft - kRight, plotHeight = kPanelHeight - kTop - kBottom;
  double x0 = kLeft, y0 = top + kTop + plotHeight, xStep = plotWidth / steps;
  double yScale = plotHeight / yMax;

  svg << "<text x=\"10\" y=\"" << top + 20 << "\" font-weight=\"bold\">"
      << escapeXml(panel.file + ":" + std::to_string(panel.line) + "  [" + panel.check + "]  " +
                   c.verdict + " on " + c.backend)
      << "</text>\n";
  svg << "<text x=\"10\" y=\"" << top + 38 << "\" font-size=\"11\">" << escapeXml(c.detail)
      << "</text>\n";
  // Axes, grid and tick labels.
  for (int tick = 0; tick <= 4; ++tick) {
    double y = y0 - plotHeight * tick / 4;
    svg << "<line x1=\"" << x0 << "\" y1=\"" << y << "\" x2=\"" << x0 + plotWidth << "\" y2=\"" << y
        << "\" stroke=\"#ddd\"/>\n";
    svg << "<text x=\"" << x0 - 6 << "\" y=\"" << y + 4
        << "\" font-size=\"10\" text-anchor=\"end\">" << number("%.3g", yMax * tick / 4)
        << "</text>\n";
  }
  for (size_t k = 0; k <= steps; ++k)
    svg << "<text x=\"" << x0 + k * xStep << "\" y=\"" << y0 + 14
        << "\" font-size=\"10\" text-anchor=\"middle\">" << k << "</text>\n";
  svg << "<text x=\"" << x0 + plotWidth / 2 << "\" y=\"" << y0 + 30
      << "\" font-size=\"11\" text-anchor=\"middle\">optimizer step</text>\n";
  svg << "<text transform=\"translate(14," << y0 - plotHeight / 2
      << ") rotate(-90)\" font-size=\"10\" text-anchor=\"middle\">"
         "error / reference's distance</text>\n";
  svg << "<rect x=\"" << x0 << "\" y=\"" << y0 - plotHeight << "\" width=\"" << plotWidth
      << "\" height=\"" << plotHeight << "\" fill=\"none\" stroke=\"#888\"/>\n";

  // The reference is the zero line: the error is measured against it.
  svg << polyline(std::vector<double>(steps + 1, 0.0), x0, y0, xStep, yScale,
                  "stroke=\"#000\" stroke-width=\"3\"");
  svg << polyline(fixed, x0, y0, xStep, yScale,
                  "stroke=\"#2ca02c\" stroke-width=\"2\" stroke-dasharray=\"6 4\"");
  svg << polyline(buggy, x0, y0, xStep, yScale, "stroke=\"#d62728\" stroke-width=\"2\"");

  struct Entry {
    const char *colour;
    std::string label;
  };
  Entry legend[] = {
      {"#d62728", "as written: " + number("%.3g", buggy.empty() ? 0.0 : buggy.back())},
      {"#2ca02c", "with the fix: " + number("%.2g", fixed.empty() ? 0.0 : fixed.back())},
      {"#000", std::string("large-batch reference (0)")}};
  double legendX = x0 + 10, legendY = y0 - plotHeight + 16;
  for (const Entry &entry : legend) {
    svg << "<line x1=\"" << legendX << "\" y1=\"" << legendY - 4 << "\" x2=\"" << legendX + 22
        << "\" y2=\"" << legendY - 4 << "\" stroke=\"" << entry.colour
        << "\" stroke-width=\"2\"/>\n";
    svg << "<text x=\"" << legendX + 28 << "\" y=\"" << legendY << "\" font-size=\"11\">"
        << escapeXml(entry.label) << "</text>\n";
    legendY += 15;
  }
}

} // namespace

std::string renderPlot(const std::vector<PlotPanel> &panels) {
  std::vector<const PlotPanel *> plotted;
  for (const PlotPanel &panel : panels)
    if (panel.confirmation && !panel.confirmation->parameterErrorBuggy.empty())
      plotted.push_back(&panel);
  double height = std::max<size_t>(plotted.size(), 1) * kPanelHeight;
  std::ostringstream svg;
  svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << kWidth << ' ' << height
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<title>gradlint --confirm: parameter error over optimizer steps</title>\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  if (plotted.empty())
    svg << "<text x=\"10\" y=\"30\">No confirmed diagnoses to plot.</text>\n";
  for (size_t i = 0; i < plotted.size(); ++i)
    drawPanel(svg, *plotted[i], i * kPanelHeight);
  svg << "</svg>\n";
  return svg.str();
}

} // namespace gradlint
