// gradlint's findings as LSP diagnostics, and their fix-its as the quick
// fixes a codeAction request gets.
#pragma once

#include "driver/analysis/Analyzer.h"
#include "driver/lsp/Positions.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gradlint::lsp {

/// One finding as published, with its quick fix ready to offer.
struct PublishedFinding {
  nlohmann::json diagnostic;
  std::optional<nlohmann::json> codeAction; ///< without its "diagnostics" member
};

/// The findings of `analysis` of `text` (the document `uri`, at `path`) in
/// that document, less those its NOLINT comments silence; none when the
/// analysis failed.
std::vector<PublishedFinding> publishedFindings(const std::string &uri, const std::string &path,
                                                const std::string &text,
                                                const FileAnalysis &analysis,
                                                const std::vector<std::string> &registeredChecks,
                                                const std::vector<std::string> &enabledChecks,
                                                bool inconclusive, PositionEncoding encoding);

/// While the document `uri` does not parse, the findings of the last version that
/// did, moved to the lines they have in `newText`: lines before and after the
/// edited region keep their findings (shifted); a finding inside the edited
/// region stays only when the region kept its number of lines. Each is marked
/// stale (`data.stale`, a note in its message naming `parseErrorLine`, 1-based)
/// and has no quick fix, since its edits were computed on the old text.
/// Findings the recovered analysis still reports (same check, same line) are
/// left out; `current` are those.
std::vector<PublishedFinding>
staleFindings(const std::string &uri, const std::vector<PublishedFinding> &lastParsed,
              const std::string &lastParsedText, const std::string &newText,
              const std::vector<PublishedFinding> &current, unsigned parseErrorLine);

/// What a codeAction request asks for, checked here (a malformed request is
/// answered InvalidParams) so that answering it later cannot throw.
nlohmann::json normalisedCodeActionParams(const nlohmann::json &params);

/// The code actions of `findings` that a request (normalisedCodeActionParams) wants.
nlohmann::json quickFixesFor(const std::vector<PublishedFinding> &findings,
                             const nlohmann::json &wanted);

} // namespace gradlint::lsp
