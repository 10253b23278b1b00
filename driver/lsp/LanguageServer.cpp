#include "driver/lsp/LanguageServer.h"

#include "checks/Check.h"
#include "driver/cache/PreambleCache.h"
#include "driver/config/CheckSelection.h"
#include "driver/lsp/Server.h"
#include "driver/lsp/Uri.h"

#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstdlib>

namespace gradlint {

namespace lsp {

using json = nlohmann::json;

void LanguageServer::logLine(const std::string &message) {
  std::lock_guard<std::mutex> guard(logMutex_);
  log_ << "gradlint lsp: " << message << std::endl;
}

void LanguageServer::logToClient(int type, const std::string &message) {
  logLine(message);
  writer_.notify("window/logMessage", {{"type", type}, {"message", message}});
}

int LanguageServer::run() {
  while (std::optional<RpcFrame> frame = reader_.next()) {
    if (!frame->problem.empty()) {
      logLine("malformed message: " + frame->problem);
      continue;
    }
    handleFrame(*frame);
    auto guard = scheduler_.lock();
    if (scheduler_.stoppingLocked())
      break;
  }
  return exitCode();
}

void LanguageServer::handleFrame(const RpcFrame &frame) {
  if (std::optional<std::string> problem = jsonNestingProblem(frame.body)) {
    logLine("message " + *problem + "; ignored");
    writer_.respondError(nullptr, rpc_error::ParseError, "Parse error: the message is " + *problem);
    return;
  }
  json message = json::parse(frame.body, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) {
    logLine("malformed JSON in a message; ignored");
    writer_.respondError(nullptr, rpc_error::ParseError, "Parse error: the message is not JSON");
    return;
  }
  if (!message.is_object() || !message.contains("method") || !message["method"].is_string()) {
    // Responses to requests we never send, or garbage.
    if (message.is_object() && message.contains("id") && !message.contains("result") &&
        !message.contains("error"))
      writer_.respondError(message["id"], rpc_error::InvalidRequest, "Invalid request: no method");
    else
      logLine("message without a method; ignored");
    return;
  }
  std::string method = message["method"];
  json params = message.contains("params") ? message["params"] : json::object();
  if (!message.contains("id")) {
    try {
      handleNotification(method, params);
    } catch (const std::exception &error) {
      logLine("bad parameters for " + method + ": " + error.what());
    }
    return;
  }
  json id = message["id"];
  if (!id.is_number_integer() && !id.is_string()) {
    writer_.respondError(nullptr, rpc_error::InvalidRequest, "Invalid request: bad id");
    return;
  }
  try {
    handleRequest(id, method, params);
  } catch (const std::exception &error) {
    writer_.respondError(id, rpc_error::InvalidParams,
                         "Invalid params for " + method + ": " + error.what());
  }
}

void LanguageServer::handleRequest(const json &id, const std::string &method, const json &params) {
  if (method == "initialize") {
    if (initialized_)
      return writer_.respondError(id, rpc_error::InvalidRequest, "initialize was already called");
    writer_.respond(id, initialize(params));
    return;
  }
  if (!initialized_)
    return writer_.respondError(id, rpc_error::ServerNotInitialized,
                                "the server is not initialized yet");
  {
    auto guard = scheduler_.lock();
    if (shutdownRequested_)
      return writer_.respondError(id, rpc_error::InvalidRequest, "the server is shutting down");
  }
  if (method == "shutdown") {
    shutdown();
    writer_.respond(id, nullptr);
  } else if (method == "textDocument/codeAction") {
    codeAction(id, params);
  } else if (method == "textDocument/diagnostic") {
    pullDiagnostics(id, params);
  } else {
    writer_.respondError(id, rpc_error::MethodNotFound, "method not found: " + method);
  }
}

void LanguageServer::handleNotification(const std::string &method, const json &params) {
  if (method == "exit") {
    auto guard = scheduler_.lock();
    scheduler_.requestStopLocked();
    return;
  }
  if (!initialized_)
    return; // the spec drops notifications before initialize
  if (method == "textDocument/didOpen")
    didOpen(params);
  else if (method == "textDocument/didChange")
    didChange(params);
  else if (method == "textDocument/didSave")
    didSave(params);
  else if (method == "textDocument/didClose")
    didClose(params);
  else if (method == "$/cancelRequest")
    cancelRequest(params);
  // "initialized", "$/setTrace", configuration changes...: nothing to do.
}

json LanguageServer::initialize(const json &params) {
  // Prefer UTF-8 positions when the client offers them: no conversion needed.
  const json *encodings = nullptr;
  if (params.contains("capabilities") && params["capabilities"].contains("general") &&
      params["capabilities"]["general"].contains("positionEncodings"))
    encodings = &params["capabilities"]["general"]["positionEncodings"];
  if (encodings && encodings->is_array())
    for (const json &offered : *encodings)
      if (offered == "utf-8")
        encoding_ = PositionEncoding::Utf8;

  // A client that pulls diagnostics (LSP 3.17) gets them only when it asks,
  // not twice.
  clientPulls_ = params.contains("/capabilities/textDocument/diagnostic"_json_pointer) &&
                 params["capabilities"]["textDocument"]["diagnostic"].is_object();

  SetupOptions options = commandLine_;
  std::string checks; // the command line of `gradlint lsp` sets none
  json settings =
      params.contains("initializationOptions") && params["initializationOptions"].is_object()
          ? params["initializationOptions"]
          : json::object();
  if (settings.contains("debounceMs") && settings["debounceMs"].is_number())
    debounceMs_ = static_cast<int>(
        std::clamp(settings["debounceMs"].get<double>(), 0.0, double(kMaxDebounceMs)));
  if (settings.contains("checks") && settings["checks"].is_string())
    checks = settings["checks"];
  if (settings.contains("compileCommandsDir") && settings["compileCommandsDir"].is_string())
    options.buildPath = settings["compileCommandsDir"];

  if (settings.contains("configFile") && settings["configFile"].is_string())
    configFile_ = settings["configFile"];
  // Each analysis runs in a forked child under these limits (the CLI's
  // --no-isolation, --timeout and --memory-limit; 0: no limit).
  if (settings.contains("isolation") && settings["isolation"].is_boolean())
    isolation_.enabled = settings["isolation"];
  if (settings.contains("timeout") && settings["timeout"].is_number() &&
      settings["timeout"].get<double>() >= 0)
    isolation_.timeoutSeconds = settings["timeout"];
  if (settings.contains("memoryLimit") && settings["memoryLimit"].is_number_unsigned())
    isolation_.memoryLimitMiB = settings["memoryLimit"];
  if (settings.contains("cacheDir") && settings["cacheDir"].is_string())
    options.cacheDir = settings["cacheDir"];
  if (settings.contains("noCache") && settings["noCache"].is_boolean())
    options.noCache = settings["noCache"];
  if (settings.contains("cacheMaxSize")) {
    const json &size = settings["cacheMaxSize"];
    std::optional<uint64_t> bytes;
    if (size.is_number_unsigned())
      bytes = size.get<uint64_t>();
    else if (size.is_string())
      bytes = parseByteSize(size.get<std::string>());
    if (bytes)
      options.cacheMaxBytes = *bytes;
    else
      logToClient(kMessageWarning, "initializationOptions.cacheMaxSize: expected bytes (a "
                                   "number, or a string such as \"2G\"); ignored");
  }

  for (const CheckFactory &factory : allChecks())
    registeredChecks_.push_back(factory.id);
  std::vector<std::string> ignored;
  if (auto error = selectChecks(checks, registeredChecks_, ignored))
    logToClient(kMessageWarning, "initializationOptions.checks: " + *error + "; ignored");
  else
    commandLineChecks_ = checks;
  if (auto error = CompilationSetup::create(options, setup_)) {
    logToClient(kMessageWarning, *error + "; looking for compile_commands.json beside each file");
    options.buildPath.clear();
    CompilationSetup::create(options, setup_);
  }

  initialized_ = true;
  scheduler_.start([this](const AnalysisJob &job) { return analyse(job); });

  json capabilities = {
      {"positionEncoding", encodingName(encoding_)},
      {"textDocumentSync",
       {{"openClose", true}, {"change", 1}, {"save", {{"includeText", false}}}}},
      {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
      {"diagnosticProvider",
       {{"identifier", "gradlint"},
        {"interFileDependencies", false},
        {"workspaceDiagnostics", false}}},
  };
  return {{"capabilities", capabilities},
          {"serverInfo", {{"name", "gradlint"}, {"version", GRADLINT_VERSION}}}};
}

void LanguageServer::scheduleLocked(const Document &document, int delayMs) {
  if (shutdownRequested_)
    return;
  scheduler_.scheduleLocked(
      AnalysisJob{document.uri, document.path, document.version, document.text, {}}, delayMs);
}

void LanguageServer::didOpen(const json &params) {
  const json &item = params.at("textDocument");
  std::string uri = item.at("uri");
  std::optional<std::string> path = fileUriToPath(uri);
  if (!path || !llvm::sys::path::is_absolute(*path)) {
    logToClient(kMessageInfo, "not analysing " + uri + ": not a local file:// URI");
    return;
  }
  // Read every field before touching the state: bad parameters change nothing.
  Document opened;
  opened.uri = uri;
  opened.path = *path;
  opened.version = item.at("version");
  opened.text = item.at("text");
  auto guard = scheduler_.lock();
  Document &document = documents_[uri] = std::move(opened);
  scheduleLocked(document, 0);
}

void LanguageServer::didChange(const json &params) {
  std::string uri = params.at("textDocument").at("uri");
  int64_t version = params.at("textDocument").at("version");
  // Full synchronisation: the last change without a range is the whole text.
  std::optional<std::string> text;
  for (const json &change : params.at("contentChanges"))
    if (!change.contains("range"))
      text = change.at("text").get<std::string>();
  if (!text) {
    logLine("didChange for " + uri + " without a full text (we asked for full sync); ignored");
    return;
  }
  auto guard = scheduler_.lock();
  auto found = documents_.find(uri);
  if (found == documents_.end())
    return;
  Document &document = found->second;
  document.text = std::move(*text);
  document.version = version;
  answerWaitingLocked(uri, /*answerAll=*/false); // those asked about older versions get nothing
  scheduleLocked(document, debounceMs_);
}

void LanguageServer::didSave(const json &params) {
  std::string uri = params.at("textDocument").at("uri");
  auto guard = scheduler_.lock();
  auto found = documents_.find(uri);
  if (found != documents_.end())
    scheduleLocked(found->second, 0); // headers it includes may have changed on disk
}

void LanguageServer::didClose(const json &params) {
  std::string uri = params.at("textDocument").at("uri");
  auto guard = scheduler_.lock();
  if (!documents_.erase(uri))
    return;
  scheduler_.cancelLocked(uri);
  answerWaitingLocked(uri, /*answerAll=*/true);
  if (!clientPulls_)
    writer_.notify("textDocument/publishDiagnostics",
                   {{"uri", uri}, {"diagnostics", json::array()}});
}

void LanguageServer::codeAction(const json &id, const json &params) {
  WaitingRequest request{id, params.at("textDocument").at("uri"), 0,
                         normalisedCodeActionParams(params)};
  auto guard = scheduler_.lock();
  auto found = documents_.find(request.uri);
  if (found == documents_.end())
    return writer_.respond(id, json::array());
  request.version = found->second.version;
  if (found->second.analysed && found->second.analysedVersion == request.version)
    return answerCodeActionLocked(request, &found->second);
  // The current version is being analysed: answer when it is done (or cancelled).
  waiting_.push_back(std::move(request));
}

void LanguageServer::pullDiagnostics(const json &id, const json &params) {
  WaitingRequest request{id, params.at("textDocument").at("uri"), 0, json::object(), true};
  if (params.contains("previousResultId") && params["previousResultId"].is_string())
    request.params["previousResultId"] = params["previousResultId"];
  auto guard = scheduler_.lock();
  auto found = documents_.find(request.uri);
  if (found == documents_.end() || found->second.analysedVersion == found->second.version)
    return answerDiagnosticPullLocked(request,
                                      found == documents_.end() ? nullptr : &found->second);
  waiting_.push_back(std::move(request));
}

void LanguageServer::answerDiagnosticPullLocked(const WaitingRequest &request,
                                                const Document *document) {
  if (!document || !document->analysed)
    return writer_.respond(request.id, {{"kind", "full"}, {"items", json::array()}});
  // The result names the analysed version: the same id means nothing changed.
  std::string resultId = std::to_string(document->analysedVersion);
  if (request.params.value("previousResultId", std::string()) == resultId)
    return writer_.respond(request.id, {{"kind", "unchanged"}, {"resultId", resultId}});
  writer_.respond(request.id,
                  {{"kind", "full"}, {"resultId", resultId}, {"items", document->diagnostics}});
}

void LanguageServer::answerCodeActionLocked(const WaitingRequest &request,
                                            const Document *document) {
  // Actions come only from the findings of the text the client has now.
  if (!document || !document->analysed || document->analysedVersion != request.version ||
      document->version != request.version)
    return writer_.respond(request.id, json::array());
  writer_.respond(request.id, quickFixesFor(document->findings, request.params));
}

void LanguageServer::answerWaitingLocked(const std::string &uri, bool answerAll) {
  auto document = documents_.find(uri);
  for (auto it = waiting_.begin(); it != waiting_.end();) {
    const Document *open = document == documents_.end() ? nullptr : &document->second;
    if (it->uri == uri && it->diagnosticPull) {
      // A pull is about the document, whichever version is current.
      if (answerAll || !open || (open->analysed && open->analysedVersion == open->version)) {
        answerDiagnosticPullLocked(*it, open);
        it = waiting_.erase(it);
      } else {
        ++it;
      }
      continue;
    }
    bool current = open && it->version == open->version;
    bool ready = current && open->analysed && open->analysedVersion == it->version;
    if (it->uri == uri && (answerAll || !current || ready)) {
      answerCodeActionLocked(*it, open);
      it = waiting_.erase(it);
    } else {
      ++it;
    }
  }
}

void LanguageServer::cancelRequest(const json &params) {
  json id = params.at("id");
  auto guard = scheduler_.lock();
  auto found = std::find_if(waiting_.begin(), waiting_.end(),
                            [&](const WaitingRequest &request) { return request.id == id; });
  if (found == waiting_.end())
    return; // already answered
  writer_.respondError(id, rpc_error::RequestCancelled, "request cancelled");
  waiting_.erase(found);
}

void LanguageServer::shutdown() {
  // Answer at once: a running analysis is left to finish unseen, never waited for.
  auto guard = scheduler_.lock();
  shutdownRequested_ = true;
  scheduler_.clearLocked();
  for (const WaitingRequest &request : waiting_)
    if (request.diagnosticPull)
      writer_.respond(request.id, {{"kind", "full"}, {"items", json::array()}});
    else
      writer_.respond(request.id, json::array());
  waiting_.clear();
}

int LanguageServer::exitCode() {
  int code;
  {
    auto guard = scheduler_.lock();
    code = shutdownRequested_ ? 0 : 1;
  }
  if (scheduler_.stop())
    return code;
  // Clang cannot be interrupted mid-parse, and exit must be prompt: leave the
  // process without waiting for the worker, once no message is half-written.
  std::unique_lock<std::mutex> holdOutput = writer_.lock();
  log_.flush();
  std::_Exit(code);
}

} // namespace lsp

int runLanguageServer(std::istream &in, std::ostream &out, std::ostream &log,
                      const SetupOptions &commandLine) {
  lsp::LanguageServer server(in, out, log, commandLine);
  return server.run();
}

} // namespace gradlint
