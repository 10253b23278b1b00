// --statistics: how many findings each check produced, as ruff prints them.
#include "driver/output/Output.h"

#include "nlohmann/json.hpp"

#include <algorithm>
#include <iomanip>
#include <map>

namespace gradlint {

namespace {

struct CheckCount {
  std::string check;
  unsigned findings = 0;
  unsigned conditional = 0; ///< of `findings`, shown by --inconclusive
  unsigned safeFixes = 0;   ///< --fix applies these
  unsigned unsafeFixes = 0; ///< only with --unsafe-fixes
};

/// The checks by count (most first), then by name; findings --fix wrote are not counted.
std::vector<CheckCount> countByCheck(const RunResult &result) {
  std::map<std::string, CheckCount> counts;
  for (const Diagnostic &diagnostic : result.diagnostics) {
    if (diagnostic.fixApplied)
      continue;
    CheckCount &count = counts[diagnostic.check];
    count.check = diagnostic.check;
    ++count.findings;
    count.conditional += diagnostic.conditional;
    if (diagnostic.fix)
      ++(diagnostic.fix->safe ? count.safeFixes : count.unsafeFixes);
  }
  std::vector<CheckCount> sorted;
  for (auto &[check, count] : counts)
    sorted.push_back(count);
  std::stable_sort(sorted.begin(), sorted.end(), [](const CheckCount &a, const CheckCount &b) {
    return a.findings > b.findings;
  });
  return sorted;
}

} // namespace

void writeStatistics(const RunResult &result, bool json, std::ostream &out) {
  std::vector<CheckCount> counts = countByCheck(result);
  if (json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const CheckCount &count : counts)
      rows.push_back({{"check", count.check},
                      {"count", count.findings},
                      {"conditional", count.conditional},
                      {"fixable", count.safeFixes},
                      {"fixable_unsafe", count.unsafeFixes}});
    out << rows.dump(2) << '\n';
    return;
  }
  size_t width = 0;
  for (const CheckCount &count : counts)
    width = std::max(width, count.check.size());
  unsigned total = 0;
  for (const CheckCount &count : counts) {
    total += count.findings;
    out << std::setw(5) << count.findings << "  " << std::left << std::setw(static_cast<int>(width))
        << count.check << std::right;
    if (count.conditional)
      out << "  " << count.conditional << " conditional";
    if (count.safeFixes)
      out << "  " << count.safeFixes << " fixable with --fix";
    if (count.unsafeFixes)
      out << (count.safeFixes ? ", " : "  ") << count.unsafeFixes << " more with --unsafe-fixes";
    out << '\n';
  }
  out << std::setw(5) << total << "  finding" << (total == 1 ? "" : "s") << " in " << result.files
      << " file" << (result.files == 1 ? "" : "s") << '\n';
  if (result.hiddenConditional)
    out << std::setw(5) << result.hiddenConditional << "  conditional finding"
        << (result.hiddenConditional == 1 ? "" : "s") << " not shown (--inconclusive shows them)\n";
}

} // namespace gradlint
