// The language server's state, shared by its files: LanguageServer.cpp reads
// the client's messages and handles them, DocumentAnalysis.cpp analyses a
// document version on the worker and publishes the findings.
#pragma once

#include "driver/analysis/CompilationSetup.h"
#include "driver/analysis/Isolation.h"
#include "driver/lsp/Findings.h"
#include "driver/lsp/JsonRpc.h"
#include "driver/lsp/Positions.h"
#include "driver/lsp/Scheduler.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <istream>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

namespace gradlint::lsp {

constexpr int kDefaultDebounceMs = 200;
constexpr int kMaxDebounceMs = 10000;

// LSP's MessageType.
constexpr int kMessageWarning = 2, kMessageInfo = 3;

struct Document {
  std::string uri;
  std::string path;
  int64_t version = 0;
  std::string text;
  /// Whether `findings` are those of a version, and of which.
  bool analysed = false;
  int64_t analysedVersion = 0;
  std::vector<PublishedFinding> findings;
  std::string lastLoggedError; ///< a file error is logged once until it changes
  /// The last version that parsed, and its findings: shown as stale while the
  /// text does not parse (a half-typed line can hide the whole loop).
  bool parsedOnce = false;
  std::string lastParsedText;
  std::vector<PublishedFinding> lastParsedFindings;
  /// The diagnostics of `analysedVersion` as published (findings, a failure,
  /// an #include not found), for pull requests.
  nlohmann::json diagnostics = nlohmann::json::array();
};

/// A request that waits for the analysis of the document's current version: a
/// codeAction (about the version it was asked about) or a pull of the
/// document's diagnostics (textDocument/diagnostic: about whatever version is
/// current when an analysis ends).
struct WaitingRequest {
  nlohmann::json id;
  std::string uri;
  int64_t version = 0;
  nlohmann::json params;
  bool diagnosticPull = false;
};

class LanguageServer {
public:
  using json = nlohmann::json;

  LanguageServer(std::istream &in, std::ostream &out, std::ostream &log,
                 const SetupOptions &commandLine)
      : reader_(in), writer_(out), log_(log), commandLine_(commandLine) {}

  int run();

private:
  void handleFrame(const RpcFrame &frame);
  void handleRequest(const json &id, const std::string &method, const json &params);
  void handleNotification(const std::string &method, const json &params);

  json initialize(const json &params);
  void didOpen(const json &params);
  void didChange(const json &params);
  void didSave(const json &params);
  void didClose(const json &params);
  void codeAction(const json &id, const json &params);
  void pullDiagnostics(const json &id, const json &params);
  void cancelRequest(const json &params);
  void shutdown();
  int exitCode();

  // Called with the scheduler's lock held.
  void scheduleLocked(const Document &document, int delayMs);
  void answerCodeActionLocked(const WaitingRequest &request, const Document *document);
  void answerDiagnosticPullLocked(const WaitingRequest &request, const Document *document);
  void answerWaitingLocked(const std::string &uri, bool answerAll);
  void publishLocked(const AnalysisJob &job, const FileAnalysis &analysis,
                     std::vector<PublishedFinding> findings);
  /// Pushes `diagnostics` (unless the client pulls) and answers the waiting requests.
  void showDiagnosticsLocked(const AnalysisJob &job, const json &diagnostics);

  /// The worker's part: analyses `job`; what it returns publishes the result.
  std::function<void()> analyse(const AnalysisJob &job);
  void logCacheUse(const AnalysisJob &job, const FileAnalysis &analysis, double seconds);
  void logToClient(int type, const std::string &message);
  void logLine(const std::string &message);

  RpcReader reader_;
  RpcWriter writer_;
  std::ostream &log_;
  std::mutex logMutex_;
  SetupOptions commandLine_; ///< the cache options of `gradlint lsp ...`

  // Read by the worker after initialize, written once before it starts.
  std::unique_ptr<CompilationSetup> setup_;
  std::vector<std::string> registeredChecks_;
  std::string commandLineChecks_; ///< initializationOptions.checks, after .gradlint.yaml's
  std::string configFile_;        ///< initializationOptions.configFile (like --config-file)
  PositionEncoding encoding_ = PositionEncoding::Utf16;
  int debounceMs_ = kDefaultDebounceMs;
  /// initializationOptions isolation, timeout, memoryLimit: the CLI's defaults.
  IsolationSettings isolation_{true, 600, 4096};

  bool initialized_ = false;       ///< reader thread only
  bool shutdownRequested_ = false; ///< guarded by the scheduler's lock once the worker runs

  Scheduler scheduler_;
  // Guarded by the scheduler's lock.
  std::map<std::string, Document> documents_; ///< open documents by URI
  std::vector<WaitingRequest> waiting_;
  /// The client pulls diagnostics (textDocument/diagnostic): none are pushed.
  bool clientPulls_ = false;
  bool loggedApiModel_ = false;
};

} // namespace gradlint::lsp
