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
};

/// A codeAction request that waits for the analysis of the version it was asked about.
struct WaitingCodeAction {
  nlohmann::json id;
  std::string uri;
  int64_t version = 0;
  nlohmann::json params;
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
  void cancelRequest(const json &params);
  void shutdown();
  int exitCode();

  // Called with the scheduler's lock held.
  void scheduleLocked(const Document &document, int delayMs);
  void answerCodeActionLocked(const WaitingCodeAction &request, const Document *document);
  void answerWaitingLocked(const std::string &uri, bool answerAll);
  void publishLocked(const AnalysisJob &job, const FileAnalysis &analysis,
                     std::vector<PublishedFinding> findings);

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
  std::vector<WaitingCodeAction> waiting_;
  bool loggedApiModel_ = false;
};

} // namespace gradlint::lsp
