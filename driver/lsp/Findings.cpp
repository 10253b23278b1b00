#include "driver/lsp/Findings.h"

#include "driver/config/Suppressions.h"
#include "driver/lsp/Uri.h"
#include "driver/output/Output.h"

#include "llvm/Support/Path.h"

#include <algorithm>

namespace gradlint::lsp {

using json = nlohmann::json;

namespace {

// LSP's DiagnosticSeverity.
constexpr int kSeverityError = 1, kSeverityWarning = 2, kSeverityInformation = 3;

} // namespace

std::vector<PublishedFinding> publishedFindings(const std::string &uri, const std::string &path,
                                                const std::string &text,
                                                const FileAnalysis &analysis,
                                                const std::vector<std::string> &registeredChecks,
                                                const std::vector<std::string> &enabledChecks,
                                                bool inconclusive, PositionEncoding encoding) {
  // A file with errors (a half-typed line) keeps the findings of the code
  // Clang recovered, so that diagnostics do not flicker while typing.
  std::vector<PublishedFinding> published;
  LineIndex lines(text);
  // NOLINT comments are read from the editor's text, not the file on disk.
  SuppressionIndex suppressions(registeredChecks, enabledChecks);
  suppressions.setFileContents(path, path, text);
  for (const Diagnostic &finding : analysis.diagnostics) {
    // Findings in headers belong to the headers' documents.
    if (finding.location.file != path || suppressions.suppresses(finding, path) ||
        (finding.conditional && !inconclusive))
      continue;
    json diagnostic = {
        {"range", rangeAtColumn(finding.location.line, finding.location.column,
                                lines.line(finding.location.line - 1), encoding)},
        // A conditional finding (Inconclusive: true) is information, not a warning.
        {"severity", finding.severity == "error" ? kSeverityError
                     : finding.conditional       ? kSeverityInformation
                                                 : kSeverityWarning},
        {"code", finding.check},
        {"source", "gradlint"},
        {"message", displayedMessage(finding)},
    };
    if (std::string docUrl = ruleDocUrl(finding.check); !docUrl.empty())
      diagnostic["codeDescription"] = {{"href", docUrl}};
    json related = json::array();
    for (const DiagnosticNote &note : finding.notes) {
      const Location &where = note.location;
      bool inDocument = where.file == path;
      if (!inDocument && !llvm::sys::path::is_absolute(where.file))
        continue; // a path relative to a directory we do not know: no place to point at
      llvm::StringRef lineText =
          inDocument ? lines.line(where.line - 1) : llvm::StringRef(where.sourceLine);
      related.push_back({{"location",
                          {{"uri", inDocument ? uri : pathToFileUri(where.file)},
                           {"range", rangeAtColumn(where.line, where.column, lineText, encoding)}}},
                         {"message", note.message}});
    }
    if (!related.empty())
      diagnostic["relatedInformation"] = related;

    PublishedFinding entry{diagnostic, std::nullopt};
    // A fix touching another file is not offered: its text there may differ from disk.
    bool local = finding.fix && !finding.fix->edits.empty() &&
                 std::all_of(finding.fix->edits.begin(), finding.fix->edits.end(),
                             [&](const TextEdit &edit) { return edit.file == path; });
    if (local) {
      json edits = json::array();
      for (const TextEdit &edit : finding.fix->edits)
        edits.push_back(
            {{"range",
              {{"start", lines.positionOfOffset(edit.offset, encoding)},
               {"end", lines.positionOfOffset(size_t(edit.offset) + edit.length, encoding)}}},
             {"newText", edit.replacement}});
      entry.codeAction = json{
          {"title", finding.fix->description + (finding.fix->safe ? "" : " (unsafe)")},
          {"kind", "quickfix"},
          {"isPreferred", finding.fix->safe},
          {"edit", {{"changes", {{uri, edits}}}}},
      };
    }
    published.push_back(std::move(entry));
  }
  return published;
}

json normalisedCodeActionParams(const json &params) {
  auto normalisedPosition = [](const json &at) {
    return position(at.at("line").get<unsigned>(), at.at("character").get<unsigned>());
  };
  const json &range = params.at("range");
  json normalised = {{"range",
                      {{"start", normalisedPosition(range.at("start"))},
                       {"end", normalisedPosition(range.at("end"))}}},
                     {"quickfixWanted", true},
                     {"mentioned", json::array()}};
  if (!params.contains("context") || !params["context"].is_object())
    return normalised;
  const json &context = params["context"];
  if (context.contains("only") && context["only"].is_array()) {
    bool wanted = false;
    for (const json &kind : context["only"])
      wanted = wanted || kind == "quickfix" || kind == "";
    normalised["quickfixWanted"] = wanted;
  }
  if (context.contains("diagnostics") && context["diagnostics"].is_array())
    for (const json &diagnostic : context["diagnostics"])
      if (diagnostic.is_object() && diagnostic.contains("code") && diagnostic.contains("range"))
        normalised["mentioned"].push_back(
            {{"code", diagnostic["code"]}, {"range", diagnostic["range"]}});
  return normalised;
}

json quickFixesFor(const std::vector<PublishedFinding> &findings, const json &wanted) {
  json actions = json::array();
  if (!wanted["quickfixWanted"].get<bool>())
    return actions;
  for (const PublishedFinding &finding : findings) {
    if (!finding.codeAction)
      continue;
    bool named = false;
    for (const json &diagnostic : wanted["mentioned"])
      named = named || (diagnostic["code"] == finding.diagnostic["code"] &&
                        diagnostic["range"] == finding.diagnostic["range"]);
    if (!named && !rangesMeet(wanted["range"], finding.diagnostic["range"]))
      continue;
    json action = *finding.codeAction;
    action["diagnostics"] = json::array({finding.diagnostic});
    actions.push_back(std::move(action));
  }
  return actions;
}

} // namespace gradlint::lsp
