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
std::vector<PublishedFinding>
publishedFindings(const std::string &uri, const std::string &path, const std::string &text,
                  const FileAnalysis &analysis, const std::vector<std::string> &registeredChecks,
                  const std::vector<std::string> &enabledChecks, PositionEncoding encoding);

/// What a codeAction request asks for, checked here (a malformed request is
/// answered InvalidParams) so that answering it later cannot throw.
nlohmann::json normalisedCodeActionParams(const nlohmann::json &params);

/// The code actions of `findings` that a request (normalisedCodeActionParams) wants.
nlohmann::json quickFixesFor(const std::vector<PublishedFinding> &findings,
                             const nlohmann::json &wanted);

} // namespace gradlint::lsp
