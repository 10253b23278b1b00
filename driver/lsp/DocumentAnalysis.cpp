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
  unsigned evictedBefore = cache ? cache->evictedEntries.load() : 0;
  uint64_t evictedBytesBefore = cache ? cache->evictedBytes.load() : 0;
  Clock::time_point began = Clock::now();
  if (std::optional<FileError> error = configs.configFor(job.path, config))
    analysis.errors.push_back({error->file, error->where() + ": " + error->message});
  else
    // A large stack, as the CLI's: 10,000 nested ifs in the buffer must not kill the server.
    analysis = analyseOnLargeStack(
        [&] { return analyseUnsavedFile(job.path, job.text, *setup_, config); });
  double seconds = std::chrono::duration<double>(Clock::now() - began).count();
  std::vector<PublishedFinding> findings = publishedFindings(
      job.uri, job.path, job.text, analysis, registeredChecks_, config.enabledChecks, encoding_);
  logCacheUse(job, analysis, seconds, cache ? cache->evictedEntries - evictedBefore : 0,
              cache ? cache->evictedBytes - evictedBytesBefore : 0);
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
  // A parse error gets no diagnostic from us, like clang-tidy inside clangd:
  // the compiler errors are clangd's to show. The findings of the code Clang
  // recovered stay; the reason goes to the client's log once.
  if (!analysis.errors.empty()) {
    std::string error = analysis.errors.front().message;
    if (error != document.lastLoggedError)
      logToClient(kMessageWarning, job.path + ": " + error +
                                       " (the findings of the code Clang recovered are shown)");
    document.lastLoggedError = error;
  } else {
    document.lastLoggedError.clear();
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
  writer_.notify("textDocument/publishDiagnostics",
                 {{"uri", job.uri}, {"version", job.version}, {"diagnostics", diagnostics}});
  answerWaitingLocked(job.uri, /*answerAll=*/false);
}

void LanguageServer::logCacheUse(const AnalysisJob &job, const FileAnalysis &analysis,
                                 double seconds, unsigned evictedEntries, uint64_t evictedBytes) {
  PreambleCache *cache = setup_->preambleCache();
  // A problem with the cache directory goes to the client, once per session.
  if (std::string note = cache ? cache->takeNote() : ""; !note.empty())
    logToClient(kMessageWarning, note);
  char took[32];
  std::snprintf(took, sizeof took, "%.2f s", seconds);
  const FileAnalysis::PreambleUse &use = analysis.preambleUse;
  std::string line = "analysed version " + std::to_string(job.version) + " of " + job.path +
                     " in " + took + "; precompiled preamble: " +
                     (!cache      ? std::string("none (cache off)")
                      : !use.used ? std::string("none")
                                  : (use.built ? "built " : "reused ") + use.pch);
  if (evictedEntries > 0 || evictedBytes > 0)
    line += "; evicted " + std::to_string(evictedEntries) + " old cache entries (" +
            std::to_string(evictedBytes) + " bytes)";
  logLine(line);
}

} // namespace gradlint::lsp
