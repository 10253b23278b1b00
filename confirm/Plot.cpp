#include "confirm/Plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace gradlint {

namespace {

constexpr double kWidth = 760, kPlotHeight = 172;
/// The y axis spans at least 1% of the reference's distance travelled.
constexpr double kSmallestRange = 0.01;
constexpr double kLeft = 70, kRight = 20, kBottom = 40, kPanelGap = 14;
/// A sans-serif character's average advance, in ems: text is wrapped to the
/// panel's width with it (SVG text does not wrap by itself).
constexpr double kAverageCharWidth = 0.6;
constexpr double kTitleSize = 12, kDetailSize = 11, kLineGap = 3;
/// Below this parameter error (as a fraction of the reference's distance)
/// the loop as written matches the reference: nothing to see in that plot.
constexpr double kMatching = 1e-3;

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

/// `text` in lines of at most `width` pixels at `fontSize`, broken at spaces
/// (a word longer than a line is cut).
std::vector<std::string> wrapped(const std::string &text, double fontSize, double width) {
  size_t perLine = std::max<size_t>(8, size_t(width / (fontSize * kAverageCharWidth)));
  std::vector<std::string> lines;
  std::string line;
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    while (word.size() > perLine) {
      if (!line.empty())
        lines.push_back(std::move(line));
      line.clear();
      lines.push_back(word.substr(0, perLine));
      word = word.substr(perLine);
    }
    if (!line.empty() && line.size() + 1 + word.size() > perLine) {
      lines.push_back(std::move(line));
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty())
    lines.push_back(std::move(line));
  return lines;
}

/// The panel's heading: where, which check, the verdict, then what was measured.
struct Heading {
  std::vector<std::string> title, detail;
  double height() const {
    return 10 + title.size() * (kTitleSize + kLineGap) + detail.size() * (kDetailSize + kLineGap) +
           10;
  }
};

Heading headingOf(const PlotPanel &panel) {
  const Confirmation &c = *panel.confirmation;
  double width = kWidth - 20;
  return {wrapped(panel.file + ":" + std::to_string(panel.line) + "  [" + panel.check + "]  " +
                      c.verdict + " on " + c.backend,
                  kTitleSize, width),
          wrapped(c.detail, kDetailSize, width)};
}

/// A sync on every micro-batch whose values match: only the communication
/// differs, so the panel shows the all-reduces instead of a flat error.
bool showsTraffic(const PlotPanel &panel) {
  const Confirmation &c = *panel.confirmation;
  return panel.countsAllReduces && c.allreduceCallsPerStep > 1 &&
         c.parameterErrorAsWritten <= kMatching;
}

double panelHeight(const PlotPanel &panel) {
  return headingOf(panel).height() + kPlotHeight + kBottom + kPanelGap;
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

void drawHeading(std::ostringstream &svg, const Heading &heading, double top) {
  double y = top + 10;
  for (const std::string &line : heading.title) {
    y += kTitleSize + kLineGap;
    svg << "<text x=\"10\" y=\"" << y << "\" font-size=\"" << kTitleSize
        << "\" font-weight=\"bold\">" << escapeXml(line) << "</text>\n";
  }
  for (const std::string &line : heading.detail) {
    y += kDetailSize + kLineGap;
    svg << "<text x=\"10\" y=\"" << y << "\" font-size=\"" << kDetailSize << "\">"
        << escapeXml(line) << "</text>\n";
  }
}

/// Axes, grid, tick labels and the frame of a plot whose y axis ends at `yMax`.
void drawAxes(std::ostringstream &svg, double x0, double y0, size_t steps, double xStep,
              double yMax, const char *yLabel, const char *tickFormat) {
  double plotWidth = kWidth - kLeft - kRight;
  for (int tick = 0; tick <= 4; ++tick) {
    double y = y0 - kPlotHeight * tick / 4;
    svg << "<line x1=\"" << x0 << "\" y1=\"" << y << "\" x2=\"" << x0 + plotWidth << "\" y2=\"" << y
        << "\" stroke=\"#ddd\"/>\n";
    svg << "<text x=\"" << x0 - 6 << "\" y=\"" << y + 4
        << "\" font-size=\"10\" text-anchor=\"end\">" << number(tickFormat, yMax * tick / 4)
        << "</text>\n";
  }
  for (size_t k = 0; k <= steps; ++k)
    svg << "<text x=\"" << x0 + k * xStep << "\" y=\"" << y0 + 14
        << "\" font-size=\"10\" text-anchor=\"middle\">" << k << "</text>\n";
  svg << "<text x=\"" << x0 + plotWidth / 2 << "\" y=\"" << y0 + 30
      << "\" font-size=\"11\" text-anchor=\"middle\">optimizer step</text>\n";
  svg << "<text transform=\"translate(14," << y0 - kPlotHeight / 2
      << ") rotate(-90)\" font-size=\"10\" text-anchor=\"middle\">" << yLabel << "</text>\n";
  svg << "<rect x=\"" << x0 << "\" y=\"" << y0 - kPlotHeight << "\" width=\"" << plotWidth
      << "\" height=\"" << kPlotHeight << "\" fill=\"none\" stroke=\"#888\"/>\n";
}

struct LegendEntry {
  const char *colour;
  std::string label;
};

void drawLegend(std::ostringstream &svg, const std::vector<LegendEntry> &legend, double x,
                double y) {
  for (const LegendEntry &entry : legend) {
    svg << "<line x1=\"" << x << "\" y1=\"" << y - 4 << "\" x2=\"" << x + 22 << "\" y2=\"" << y - 4
        << "\" stroke=\"" << entry.colour << "\" stroke-width=\"2\"/>\n";
    svg << "<text x=\"" << x + 28 << "\" y=\"" << y << "\" font-size=\"11\">"
        << escapeXml(entry.label) << "</text>\n";
    y += 15;
  }
}

/// The parameter error of the loop as written and with the fix, against the
/// large-batch reference (the zero line).
void drawParameterError(std::ostringstream &svg, const Confirmation &c, double x0, double y0) {
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
  double xStep = (kWidth - kLeft - kRight) / steps, yScale = kPlotHeight / yMax;
  drawAxes(svg, x0, y0, steps, xStep, yMax, "error / reference's distance", "%.3g");
  svg << polyline(std::vector<double>(steps + 1, 0.0), x0, y0, xStep, yScale,
                  "stroke=\"#000\" stroke-width=\"3\"");
  svg << polyline(fixed, x0, y0, xStep, yScale,
                  "stroke=\"#2ca02c\" stroke-width=\"2\" stroke-dasharray=\"6 4\"");
  svg << polyline(buggy, x0, y0, xStep, yScale, "stroke=\"#d62728\" stroke-width=\"2\"");
  drawLegend(svg,
             {{"#d62728", "as written: " + number("%.3g", buggy.empty() ? 0.0 : buggy.back())},
              {"#2ca02c", "with the fix: " + number("%.2g", fixed.empty() ? 0.0 : fixed.back())},
              {"#000", "large-batch reference (0)"}},
             x0 + 10, y0 - kPlotHeight + 16);
}

/// All-reduce calls so far: as written (measured per step) and with the fix,
/// which syncs once per window instead of once per micro-batch (1/N of them);
/// the parameters match either way.
void drawTraffic(std::ostringstream &svg, const Confirmation &c, double x0, double y0) {
  size_t steps = c.parameterErrorBuggy.size() > 1 ? c.parameterErrorBuggy.size() - 1 : 1;
  double perStepFixed = c.allreduceCallsPerStep / std::max(1, c.accumulationSteps);
  std::vector<double> asWritten, fixed;
  for (size_t k = 0; k <= steps; ++k) {
    asWritten.push_back(c.allreduceCallsPerStep * double(k));
    fixed.push_back(perStepFixed * double(k));
  }
  double yMax = niceCeiling(asWritten.back());
  double xStep = (kWidth - kLeft - kRight) / steps, yScale = kPlotHeight / yMax;
  drawAxes(svg, x0, y0, steps, xStep, yMax, "all-reduce calls so far", "%.0f");
  svg << polyline(fixed, x0, y0, xStep, yScale,
                  "stroke=\"#2ca02c\" stroke-width=\"2\" stroke-dasharray=\"6 4\"");
  svg << polyline(asWritten, x0, y0, xStep, yScale, "stroke=\"#d62728\" stroke-width=\"2\"");
  drawLegend(svg,
             {{"#d62728", "as written: " + number("%.3g", c.allreduceCallsPerStep) +
                              " all-reduces per optimizer step (measured)"},
              {"#2ca02c", "with the fix: " + number("%.3g", perStepFixed) +
                              " per step (1/N, N = " + std::to_string(c.accumulationSteps) + ")"},
              {"#000", "parameters as written match the reference (error " +
                           number("%.2g", c.parameterErrorAsWritten) + ")"}},
             x0 + 10, y0 - kPlotHeight + 16);
}

void drawPanel(std::ostringstream &svg, const PlotPanel &panel, double top) {
  const Confirmation &c = *panel.confirmation;
  Heading heading = headingOf(panel);
  bool traffic = showsTraffic(panel);
  svg << "<g class=\"panel\" data-check=\"" << escapeXml(panel.check) << "\" data-plot=\""
      << (traffic ? "all-reduce-calls" : "parameter-error") << "\">\n";
  drawHeading(svg, heading, top);
  double x0 = kLeft, y0 = top + heading.height() + kPlotHeight;
  if (traffic)
    drawTraffic(svg, c, x0, y0);
  else
    drawParameterError(svg, c, x0, y0);
  svg << "</g>\n";
}

} // namespace

std::string renderPlot(const std::vector<PlotPanel> &panels) {
  std::vector<const PlotPanel *> plotted;
  for (const PlotPanel &panel : panels)
    if (panel.confirmation && !panel.confirmation->parameterErrorBuggy.empty())
      plotted.push_back(&panel);
  double height = 0;
  for (const PlotPanel *panel : plotted)
    height += panelHeight(*panel);
  height = std::max(height, 60.0);
  std::ostringstream svg;
  svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << kWidth << ' ' << height
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<title>gradlint --confirm: parameter error over optimizer steps</title>\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  if (plotted.empty())
    svg << "<text x=\"10\" y=\"30\">No confirmed diagnoses to plot.</text>\n";
  double top = 0;
  for (const PlotPanel *panel : plotted) {
    drawPanel(svg, *panel, top);
    top += panelHeight(*panel);
  }
  svg << "</svg>\n";
  return svg.str();
}

} // namespace gradlint
