// Findings kept while the document does not parse: typing half a statement
// makes Clang drop the loop it is in, and with it every finding there.
#include "driver/lsp/Findings.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <optional>

namespace gradlint::lsp {

using json = nlohmann::json;

namespace {

llvm::SmallVector<llvm::StringRef, 0> linesOf(const std::string &text) {
  llvm::SmallVector<llvm::StringRef, 0> lines;
  llvm::StringRef(text).split(lines, '\n');
  return lines;
}

/// Where the 0-based lines of one text are in another: the common prefix and
/// suffix are unchanged, the region between them was edited.
class LineMapping {
public:
  LineMapping(const std::string &before, const std::string &after) {
    llvm::SmallVector<llvm::StringRef, 0> oldLines = linesOf(before), newLines = linesOf(after);
    size_t limit = std::min(oldLines.size(), newLines.size());
    while (prefix_ < limit && oldLines[prefix_] == newLines[prefix_])
      ++prefix_;
    size_t suffix = 0;
    while (suffix < limit - prefix_ &&
           oldLines[oldLines.size() - 1 - suffix] == newLines[newLines.size() - 1 - suffix])
      ++suffix;
    oldEditedEnd_ = oldLines.size() - suffix;
    newEditedEnd_ = newLines.size() - suffix;
  }

  std::optional<int64_t> map(int64_t line) const {
    if (line < int64_t(prefix_))
      return line;
    if (line >= int64_t(oldEditedEnd_))
      return line + int64_t(newEditedEnd_) - int64_t(oldEditedEnd_);
    // Inside the edit: the same line only when the edit kept the line count.
    if (oldEditedEnd_ == newEditedEnd_)
      return line;
    return std::nullopt;
  }

private:
  size_t prefix_ = 0;
  size_t oldEditedEnd_ = 0, newEditedEnd_ = 0;
};

/// `range` moved to its new lines, or nothing when either end has none.
std::optional<json> mappedRange(const json &range, const LineMapping &mapping) {
  std::optional<int64_t> start = mapping.map(range["start"]["line"].get<int64_t>());
  std::optional<int64_t> end = mapping.map(range["end"]["line"].get<int64_t>());
  if (!start || !end)
    return std::nullopt;
  json moved = range;
  moved["start"]["line"] = *start;
  moved["end"]["line"] = *end;
  return moved;
}

} // namespace

std::vector<PublishedFinding>
staleFindings(const std::string &uri, const std::vector<PublishedFinding> &lastParsed,
              const std::string &lastParsedText, const std::string &newText,
              const std::vector<PublishedFinding> &current, unsigned parseErrorLine) {
  LineMapping mapping(lastParsedText, newText);
  std::vector<PublishedFinding> kept;
  for (const PublishedFinding &finding : lastParsed) {
    const json &old = finding.diagnostic;
    std::optional<json> range = mappedRange(old["range"], mapping);
    if (!range)
      continue;
    bool stillReported = std::any_of(current.begin(), current.end(), [&](const auto &now) {
      return now.diagnostic["code"] == old["code"] &&
             now.diagnostic["range"]["start"]["line"] == (*range)["start"]["line"];
    });
    if (stillReported)
      continue;
    json diagnostic = old;
    diagnostic["range"] = *range;
    std::string why = parseErrorLine ? "line " + std::to_string(parseErrorLine) + " does not parse"
                                     : "this version does not parse";
    diagnostic["message"] =
        old["message"].get<std::string>() + " [from the last version that parsed; " + why + "]";
    diagnostic["data"] = {{"stale", true}};
    if (diagnostic.contains("relatedInformation")) {
      json related = json::array();
      for (json note : diagnostic["relatedInformation"]) {
        // Notes in this document move with it (or go); others are elsewhere and stay.
        if (note["location"]["uri"] == uri) {
          std::optional<json> noteRange = mappedRange(note["location"]["range"], mapping);
          if (!noteRange)
            continue;
          note["location"]["range"] = *noteRange;
        }
        related.push_back(std::move(note));
      }
      diagnostic["relatedInformation"] = related;
    }
    kept.push_back({std::move(diagnostic), std::nullopt});
  }
  return kept;
}

} // namespace gradlint::lsp
