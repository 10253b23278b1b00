// The worker's side of the language server: analyse one document version,
// then publish its findings unless the client has moved on.
#include "driver/lsp/Server.h"

#include "driver/analysis/Isolation.h"
#include "driver/cache/PreambleCache.h"
#include "driver/config/Config.h"

#include <chrono>
#include <cstdio>

namespace gradlint::lsp {

using json = nlohmann::json;

std::function<void()> LanguageServer::analyse(const AnalysisJob &job) {
  // Read afresh for every run, so that edits to .gradlint.yaml apply at once.
  ConfigResolver configs(registeredChecks_, configFile_, commandLineChecks_, "");
  FileConfig config;
  FileAnalysis analysis;
  PreambleCache *cache = setup_->preambleCache();
  Clock::time_point began = Clock::now();
  if (std::optional<FileError> error = configs.configFor(job.path, config)) {
    analysis.errors.push_back({error->file, error->where() + ": " + error->message});
  } else if (auto database = setup_->databaseProblem(job.path)) {
    // As the CLI: not analysed with a command the project did not give. The
    // database is looked at again on the next change (a configure may be
    // writing it).
    analysis.analysisFailed = true;
    analysis.errors.push_back({database->first, database->first + ": " + database->second});
  } else {
    // In a forked child, under the CLI's time and memory limits: a buffer
    // that crashes Clang, never finishes or eats memory costs its own
    // diagnostics only. A large stack there too, for 10,000 nested ifs.
    unsigned evictedBefore = cache ? cache->evictedEntries.load() : 0;
    uint64_t evictedBytesBefore = cache ? cache->evictedBytes.load() : 0;
    analysis = analyseInForkedChild(job.path, isolation_, [&] {
      FileAnalysis result = analyseUnsavedFile(job.path, job.text, *setup_, config);
      if (cache)
        result.childCacheUse = cacheUseOf(*cache, evictedBefore, evictedBytesBefore);
      return result;
    });
    if (cache && isolation_.enabled) {
      std::lock_guard<std::mutex> forking(forkMutex());
      cache->adopt(analysis.childCacheUse.failedKeys, analysis.childCacheUse.unusable,
                   analysis.childCacheUse.note);
    }
  }
  double seconds = std::chrono::duration<double>(Clock::now() - began).count();
  std::vector<PublishedFinding> findings =
      publishedFindings(job.uri, job.path, job.text, analysis, registeredChecks_,
                        config.enabledChecks, config.inconclusive, encoding_);
  logCacheUse(job, analysis, seconds);
  return [this, &job, analysis = std::move(analysis), findings = std::move(findings)]() mutable {
    publishLocked(job, analysis, std::move(findings));
  };
}

void LanguageServer::publishLocked(const AnalysisJob &job, const FileAnalysis &analysis,
                                   std::vector<PublishedFinding> findings) {
  auto found = documents_.find(job.uri);
  // A result for a version the client no longer has is dropped, never published.
  if (scheduler_.stoppingLocked() || shutdownRequested_ || found == documents_.end() ||
      found->second.version != job.version) {
    logLine("dropped the findings of version " + std::to_string(job.version) + " of " + job.uri +
            ": the client no longer has that text");
    return;
  }
  Document &document = found->second;
  document.analysed = true;
  document.analysedVersion = job.version;
  document.findings = std::move(findings);
  if (analysis.analysisFailed) {
    // Its findings are unknown: one diagnostic at the top says why, and the
    // other documents are analysed as usual.
    std::string error =
        analysis.errors.empty() ? "analysis failed" : analysis.errors.front().message;
    logToClient(kMessageWarning, job.path + ": " + error);
    json failure = {
        {"range",
         {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 0}}}}},
        {"severity", 2},
        {"source", "gradlint"},
        {"message",
         "gradlint could not analyse this version: " + error + "; its findings are not shown"}};
    document.diagnostics = json::array({failure});
    return showDiagnosticsLocked(job, document.diagnostics);
  }
  // A parse error gets no diagnostic from us, like clang-tidy inside clangd:
  // the compiler errors are clangd's to show. The findings of the code Clang
  // recovered stay, with those of the last version that parsed (stale); the
  // reason goes to the client's log once. An #include not found is ours to
  // show: it can hide every finding, and clangd may have found it elsewhere.
  json extra = json::array();
  if (!analysis.errors.empty()) {
    const FileError &first = analysis.errors.front();
    if (first.message != document.lastLoggedError)
      logToClient(kMessageWarning, job.path + ": " + first.message +
                                       " (the findings of the code Clang recovered, and those of "
                                       "the last version that parsed, are shown)");
    document.lastLoggedError = first.message;
    // Only this text's own errors; a broken .gradlint.yaml names itself and shows nothing.
    if (document.parsedOnce && first.file == job.path) {
      std::vector<PublishedFinding> stale =
          staleFindings(job.uri, document.lastParsedFindings, document.lastParsedText, job.text,
                        document.findings, first.line);
      for (PublishedFinding &finding : stale)
        document.findings.push_back(std::move(finding));
    }
    if (first.includeNotFound && first.line > 0) {
      LineIndex lines(job.text);
      extra.push_back(
          {{"range",
            rangeAtColumn(first.line, first.column, lines.line(first.line - 1), encoding_)},
           {"severity", 2},
           {"source", "gradlint"},
           {"message", "gradlint cannot analyse this file without this header (" + first.message +
                           "); compileCommandsDir in the settings is like -p"}});
    }
  } else {
    document.lastLoggedError.clear();
    document.parsedOnce = true;
    document.lastParsedText = job.text;
    document.lastParsedFindings = document.findings;
  }
  if (analysis.usedApiModel && !loggedApiModel_) {
    loggedApiModel_ = true;
    logToClient(kMessageInfo, "<torch/torch.h> is not on the include path; using the bundled "
                              "LibTorch API model (" +
                                  CompilationSetup::apiModelDir() + ")");
  }
  json diagnostics = json::array();
  for (const PublishedFinding &finding : document.findings)
    diagnostics.push_back(finding.diagnostic);
  for (json &diagnostic : extra)
    diagnostics.push_back(std::move(diagnostic));
  document.diagnostics = std::move(diagnostics);
  showDiagnosticsLocked(job, document.diagnostics);
}

void LanguageServer::showDiagnosticsLocked(const AnalysisJob &job, const json &diagnostics) {
  if (!clientPulls_)
    writer_.notify("textDocument/publishDiagnostics",
                   {{"uri", job.uri}, {"version", job.version}, {"diagnostics", diagnostics}});
  answerWaitingLocked(job.uri, /*answerAll=*/false);
}

void LanguageServer::logCacheUse(const AnalysisJob &job, const FileAnalysis &analysis,
                                 double seconds) {
  PreambleCache *cache = setup_->preambleCache();
  const FileAnalysis::CacheUse &cacheUse = analysis.childCacheUse;
  // A problem with the cache directory goes to the client, once per session.
  if (!cacheUse.note.empty())
    logToClient(kMessageWarning, cacheUse.note);
  char took[32];
  std::snprintf(took, sizeof took, "%.2f s", seconds);
  const FileAnalysis::PreambleUse &use = analysis.preambleUse;
  std::string line = "analysed version " + std::to_string(job.version) + " of " + job.path +
                     " in " + took + "; precompiled preamble: " +
                     (!cache      ? std::string("none (cache off)")
                      : !use.used ? std::string("none")
                                  : (use.built ? "built " : "reused ") + use.pch);
  if (cacheUse.evictedEntries > 0 || cacheUse.evictedBytes > 0)
    line += "; evicted " + std::to_string(cacheUse.evictedEntries) + " old cache entries (" +
            std::to_string(cacheUse.evictedBytes) + " bytes)";
  logLine(line);
}

} // namespace gradlint::lsp
