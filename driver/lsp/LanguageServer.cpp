#include "driver/lsp/LanguageServer.h"

#include "driver/analysis/Analyzer.h"
#include "checks/Check.h"
#include "driver/config/Config.h"
#include "driver/analysis/Isolation.h"
#include "driver/lsp/JsonRpc.h"
#include "driver/output/Output.h"
#include "driver/cache/PreambleCache.h"
#include "driver/config/CheckSelection.h"
#include "driver/config/Suppressions.h"

#include "llvm/Support/Path.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <map>
#include <thread>

namespace gradlint {

namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr int kDefaultDebounceMs = 200;
constexpr int kMaxDebounceMs = 10000;

// LSP enums.
constexpr int kSeverityError = 1, kSeverityWarning = 2;
constexpr int kMessageWarning = 2, kMessageInfo = 3;

// ---------------------------------------------------------------------------
// URIs

int hexValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/// The local path of a `file://` URI (percent-decoded); nullopt for other
/// schemes, remote hosts and malformed escapes.
std::optional<std::string> fileUriToPath(const std::string &uri) {
  static const std::string kScheme = "file://";
  if (uri.size() < kScheme.size() ||
      llvm::StringRef(uri).substr(0, kScheme.size()).compare_insensitive(kScheme) != 0)
    return std::nullopt;
  std::string rest = uri.substr(kScheme.size());
  size_t slash = rest.find('/');
  if (slash == std::string::npos)
    return std::nullopt;
  std::string host = rest.substr(0, slash);
  if (!host.empty() && host != "localhost")
    return std::nullopt;
  std::string path;
  for (size_t i = slash; i < rest.size(); ++i) {
    char c = rest[i];
    if (c == '?' || c == '#')
      break;
    if (c != '%') {
      path += c;
      continue;
    }
    int high = i + 1 < rest.size() ? hexValue(rest[i + 1]) : -1;
    int low = i + 2 < rest.size() ? hexValue(rest[i + 2]) : -1;
    if (high < 0 || low < 0 || (high == 0 && low == 0))
      return std::nullopt;
    path += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return path;
}

/// A `file://` URI for an absolute path, escaping all but unreserved characters and '/'.
std::string pathToFileUri(const std::string &path) {
  static const char *const kHex = "0123456789ABCDEF";
  std::string uri = "file://";
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 15];
    }
  }
  return uri;
}

// ---------------------------------------------------------------------------
// Positions: gradlint counts 1-based lines and byte columns; LSP counts
// 0-based lines and characters in the negotiated encoding.

enum class PositionEncoding { Utf8, Utf16, Utf32 };

const char *encodingName(PositionEncoding encoding) {
  switch (encoding) {
  case PositionEncoding::Utf8: return "utf-8";
  case PositionEncoding::Utf16: return "utf-16";
  case PositionEncoding::Utf32: return "utf-32";
  }
  return "utf-16";
}

/// Bytes of the UTF-8 sequence starting with `lead` (1 for a stray byte).
size_t sequenceLength(unsigned char lead) {
  if (lead >= 0xF0 && lead <= 0xF4)
    return 4;
  if (lead >= 0xE0)
    return lead <= 0xEF ? 3 : 1;
  if (lead >= 0xC2)
    return 2;
  return 1;
}

/// Characters, in `encoding`, of the first `bytes` bytes of `line`. Invalid
/// UTF-8 counts one unit per byte, so a broken file still gets positions.
unsigned charactersBefore(llvm::StringRef line, size_t bytes, PositionEncoding encoding) {
  bytes = std::min(bytes, line.size());
  if (encoding == PositionEncoding::Utf8)
    return static_cast<unsigned>(bytes);
  unsigned units = 0;
  for (size_t i = 0; i < bytes;) {
    size_t length = sequenceLength(static_cast<unsigned char>(line[i]));
    bool valid = i + length <= line.size();
    for (size_t k = 1; valid && k < length; ++k)
      valid = (static_cast<unsigned char>(line[i + k]) & 0xC0) == 0x80;
    if (!valid)
      length = 1;
    units += (length == 4 && encoding == PositionEncoding::Utf16) ? 2 : 1;
    i += length;
  }
  return units;
}

json position(unsigned line, unsigned character) {
  return {{"line", line}, {"character", character}};
}

/// Line starts of a text, for turning byte offsets and 1-based line/columns into LSP positions.
class LineIndex {
public:
  explicit LineIndex(const std::string &text) : text_(text) {
    starts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n')
        starts_.push_back(i + 1);
  }

  /// The text of a 0-based line, without its line break.
  llvm::StringRef line(size_t index) const {
    if (index >= starts_.size())
      return {};
    size_t end = index + 1 < starts_.size() ? starts_[index + 1] - 1 : text_.size();
    llvm::StringRef text = llvm::StringRef(text_).slice(starts_[index], end);
    return text.ends_with("\r") ? text.drop_back() : text;
  }

  /// The LSP position of a byte offset (clamped to the text).
  json positionOfOffset(size_t offset, PositionEncoding encoding) const {
    offset = std::min(offset, text_.size());
    size_t index = std::upper_bound(starts_.begin(), starts_.end(), offset) - starts_.begin() - 1;
    return position(static_cast<unsigned>(index),
                    charactersBefore(line(index), offset - starts_[index], encoding));
  }

  /// The byte offset of a 1-based line and byte column (clamped to the text).
  size_t offsetOf(unsigned line, unsigned column) const {
    if (line == 0)
      return 0;
    if (line > starts_.size())
      return text_.size();
    return std::min(text_.size(), starts_[line - 1] + (column > 0 ? column - 1 : 0));
  }

private:
  const std::string &text_;
  std::vector<size_t> starts_;
};

bool isIdentifierByte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// The range of a finding reported at a 1-based byte column of `line`: the
/// identifier starting there, else the one character there.
json rangeAtColumn(unsigned lineNumber, unsigned column, llvm::StringRef line,
                   PositionEncoding encoding) {
  unsigned lspLine = lineNumber > 0 ? lineNumber - 1 : 0;
  size_t start = std::min<size_t>(column > 0 ? column - 1 : 0, line.size());
  size_t end = start;
  while (end < line.size() && isIdentifierByte(line[end]))
    ++end;
  if (end == start && start < line.size())
    end = start + std::min(sequenceLength(static_cast<unsigned char>(line[start])),
                           line.size() - start);
  return {{"start", position(lspLine, charactersBefore(line, start, encoding))},
          {"end", position(lspLine, charactersBefore(line, end, encoding))}};
}

/// Orders LSP positions; true when a precedes or equals b.
bool positionNotAfter(const json &a, const json &b) {
  unsigned aLine = a.at("line"), bLine = b.at("line");
  if (aLine != bLine)
    return aLine < bLine;
  return a.at("character").get<unsigned>() <= b.at("character").get<unsigned>();
}

/// Ranges that overlap or touch (a cursor at either end of a finding selects it).
bool rangesMeet(const json &a, const json &b) {
  return positionNotAfter(a.at("start"), b.at("end")) && positionNotAfter(b.at("start"), a.at("end"));
}

// ---------------------------------------------------------------------------
// Server state

/// One finding as published, with its quick fix ready to offer.
struct PublishedFinding {
  json diagnostic;
  std::optional<json> codeAction; ///< without its "diagnostics" member
};

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

/// One analysis to run: the text of a document version, once `due`.
struct AnalysisJob {
  std::string uri;
  std::string path;
  int64_t version = 0;
  std::string text;
  Clock::time_point due;
};

/// A codeAction request that waits for the analysis of the version it was asked about.
struct WaitingCodeAction {
  json id;
  std::string uri;
  int64_t version = 0;
  json params;
};

class LanguageServer {
public:
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

  // Called with mutex_ held.
  void scheduleLocked(const Document &document, int delayMs);
  void answerCodeActionLocked(const WaitingCodeAction &request, const Document *document);
  void answerWaitingLocked(const std::string &uri, bool answerAll);

  void workerLoop();
  void logCacheUse(const AnalysisJob &job, const FileAnalysis &analysis, double seconds,
                   unsigned evictedEntries, uint64_t evictedBytes);
  std::vector<PublishedFinding> toPublished(const AnalysisJob &job, const FileConfig &config,
                                           FileAnalysis &analysis) const;
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

  bool initialized_ = false;      ///< reader thread only
  bool shutdownRequested_ = false; ///< guarded by mutex_ once the worker runs

  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::string, Document> documents_;  ///< open documents by URI
  std::map<std::string, AnalysisJob> queue_;   ///< newest pending version by URI
  std::vector<WaitingCodeAction> waiting_;
  bool stopping_ = false;
  bool analysing_ = false;
  bool loggedApiModel_ = false;
  std::thread worker_;
};

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
    std::lock_guard<std::mutex> guard(mutex_);
    if (stopping_)
      break;
  }
  return exitCode();
}

void LanguageServer::handleFrame(const RpcFrame &frame) {
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
    std::lock_guard<std::mutex> guard(mutex_);
    if (shutdownRequested_)
      return writer_.respondError(id, rpc_error::InvalidRequest,
                                  "the server is shutting down");
  }
  if (method == "shutdown") {
    shutdown();
    writer_.respond(id, nullptr);
  } else if (method == "textDocument/codeAction") {
    codeAction(id, params);
  } else {
    writer_.respondError(id, rpc_error::MethodNotFound, "method not found: " + method);
  }
}

void LanguageServer::handleNotification(const std::string &method, const json &params) {
  if (method == "exit") {
    std::lock_guard<std::mutex> guard(mutex_);
    stopping_ = true;
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

  SetupOptions options = commandLine_;
  std::string checks; // the command line of `gradlint lsp` sets none
  json settings = params.contains("initializationOptions") &&
                          params["initializationOptions"].is_object()
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
  worker_ = std::thread([this] { workerLoop(); });

  json capabilities = {
      {"positionEncoding", encodingName(encoding_)},
      {"textDocumentSync",
       {{"openClose", true}, {"change", 1}, {"save", {{"includeText", false}}}}},
      {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
  };
  return {{"capabilities", capabilities},
          {"serverInfo", {{"name", "gradlint"}, {"version", GRADLINT_VERSION}}}};
}

void LanguageServer::scheduleLocked(const Document &document, int delayMs) {
  if (shutdownRequested_)
    return;
  // Replacing the queued job coalesces a burst of changes into the newest text.
  queue_[document.uri] = AnalysisJob{document.uri, document.path, document.version, document.text,
                                     Clock::now() + std::chrono::milliseconds(delayMs)};
  wake_.notify_all();
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
  std::lock_guard<std::mutex> guard(mutex_);
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
  std::lock_guard<std::mutex> guard(mutex_);
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
  std::lock_guard<std::mutex> guard(mutex_);
  auto found = documents_.find(uri);
  if (found != documents_.end())
    scheduleLocked(found->second, 0); // headers it includes may have changed on disk
}

void LanguageServer::didClose(const json &params) {
  std::string uri = params.at("textDocument").at("uri");
  std::lock_guard<std::mutex> guard(mutex_);
  if (!documents_.erase(uri))
    return;
  queue_.erase(uri);
  answerWaitingLocked(uri, /*answerAll=*/true);
  writer_.notify("textDocument/publishDiagnostics",
                 {{"uri", uri}, {"diagnostics", json::array()}});
}

/// What a codeAction request asks for, checked here (a malformed request is
/// answered InvalidParams) so that answering it later cannot throw.
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

void LanguageServer::codeAction(const json &id, const json &params) {
  WaitingCodeAction request{id, params.at("textDocument").at("uri"), 0,
                            normalisedCodeActionParams(params)};
  std::lock_guard<std::mutex> guard(mutex_);
  auto found = documents_.find(request.uri);
  if (found == documents_.end())
    return writer_.respond(id, json::array());
  request.version = found->second.version;
  if (found->second.analysed && found->second.analysedVersion == request.version)
    return answerCodeActionLocked(request, &found->second);
  // The current version is being analysed: answer when it is done (or cancelled).
  waiting_.push_back(std::move(request));
}

void LanguageServer::answerCodeActionLocked(const WaitingCodeAction &request,
                                            const Document *document) {
  json actions = json::array();
  // Actions come only from the findings of the text the client has now.
  if (!document || !document->analysed || document->analysedVersion != request.version ||
      document->version != request.version)
    return writer_.respond(request.id, actions);
  const json &wanted = request.params; // see normalisedCodeActionParams
  if (!wanted["quickfixWanted"].get<bool>())
    return writer_.respond(request.id, actions);
  for (const PublishedFinding &finding : document->findings) {
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
  writer_.respond(request.id, actions);
}

void LanguageServer::answerWaitingLocked(const std::string &uri, bool answerAll) {
  auto document = documents_.find(uri);
  for (auto it = waiting_.begin(); it != waiting_.end();) {
    bool current = document != documents_.end() && it->version == document->second.version;
    bool ready = current && document->second.analysed &&
                 document->second.analysedVersion == it->version;
    if (it->uri == uri && (answerAll || !current || ready)) {
      answerCodeActionLocked(*it, document == documents_.end() ? nullptr : &document->second);
      it = waiting_.erase(it);
    } else {
      ++it;
    }
  }
}

void LanguageServer::cancelRequest(const json &params) {
  json id = params.at("id");
  std::lock_guard<std::mutex> guard(mutex_);
  auto found = std::find_if(waiting_.begin(), waiting_.end(),
                            [&](const WaitingCodeAction &request) { return request.id == id; });
  if (found == waiting_.end())
    return; // already answered
  writer_.respondError(id, rpc_error::RequestCancelled, "request cancelled");
  waiting_.erase(found);
}

void LanguageServer::shutdown() {
  // Answer at once: a running analysis is left to finish unseen, never waited for.
  std::lock_guard<std::mutex> guard(mutex_);
  shutdownRequested_ = true;
  queue_.clear();
  for (const WaitingCodeAction &request : waiting_)
    writer_.respond(request.id, json::array());
  waiting_.clear();
  wake_.notify_all();
}

int LanguageServer::exitCode() {
  bool busy;
  int code;
  {
    std::lock_guard<std::mutex> guard(mutex_);
    stopping_ = true;
    busy = analysing_;
    code = shutdownRequested_ ? 0 : 1;
  }
  wake_.notify_all();
  if (!worker_.joinable() || !busy) {
    if (worker_.joinable())
      worker_.join();
    return code;
  }
  // Clang cannot be interrupted mid-parse, and exit must be prompt: leave the
  // process without waiting for the worker, once no message is half-written.
  std::unique_lock<std::mutex> holdOutput = writer_.lock();
  log_.flush();
  std::_Exit(code);
}

void LanguageServer::workerLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    if (stopping_)
      return;
    if (queue_.empty()) {
      wake_.wait(lock);
      continue;
    }
    auto next = std::min_element(queue_.begin(), queue_.end(), [](const auto &a, const auto &b) {
      return a.second.due < b.second.due;
    });
    Clock::time_point due = next->second.due; // a copy: the job may be replaced while we wait
    if (due > Clock::now()) {
      wake_.wait_until(lock, due);
      continue;
    }
    AnalysisJob job = std::move(next->second);
    queue_.erase(next);
    analysing_ = true;
    lock.unlock();

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
    std::vector<PublishedFinding> findings = toPublished(job, config, analysis);
    logCacheUse(job, analysis, seconds, cache ? cache->evictedEntries - evictedBefore : 0,
                cache ? cache->evictedBytes - evictedBytesBefore : 0);

    lock.lock();
    analysing_ = false;
    auto found = documents_.find(job.uri);
    // A result for a version the client no longer has is dropped, never published.
    if (stopping_ || shutdownRequested_ || found == documents_.end() ||
        found->second.version != job.version) {
      logLine("dropped the findings of version " + std::to_string(job.version) + " of " +
              job.uri + ": the client no longer has that text");
      continue;
    }
    Document &document = found->second;
    document.analysed = true;
    document.analysedVersion = job.version;
    document.findings = std::move(findings);
    // A file that does not parse gets no diagnostic from us, like clang-tidy
    // inside clangd: the compiler errors are clangd's to show, and a half-typed
    // line would otherwise flash an error on every keystroke. The reason goes
    // to the client's log once, so that "no findings" can be explained.
    if (!analysis.errors.empty()) {
      std::string error = analysis.errors.front().message;
      if (error != document.lastLoggedError)
        logToClient(kMessageWarning, "cannot analyse " + job.path + ": " + error);
      document.lastLoggedError = error;
    } else {
      document.lastLoggedError.clear();
    }
    if (analysis.usedApiModel && !loggedApiModel_) {
      loggedApiModel_ = true;
      logToClient(kMessageInfo, "<torch/torch.h> is not on the include path; using the bundled "
                                "LibTorch API model (" + CompilationSetup::apiModelDir() + ")");
    }
    json diagnostics = json::array();
    for (const PublishedFinding &finding : document.findings)
      diagnostics.push_back(finding.diagnostic);
    writer_.notify("textDocument/publishDiagnostics",
                   {{"uri", job.uri}, {"version", job.version}, {"diagnostics", diagnostics}});
    answerWaitingLocked(job.uri, /*answerAll=*/false);
  }
}

void LanguageServer::logCacheUse(const AnalysisJob &job, const FileAnalysis &analysis,
                                 double seconds, unsigned evictedEntries,
                                 uint64_t evictedBytes) {
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

std::vector<PublishedFinding> LanguageServer::toPublished(const AnalysisJob &job,
                                                          const FileConfig &config,
                                                          FileAnalysis &analysis) const {
  std::vector<PublishedFinding> published;
  if (!analysis.errors.empty())
    return published;
  LineIndex lines(job.text);
  // NOLINT comments are read from the editor's text, not the file on disk.
  SuppressionIndex suppressions(registeredChecks_, config.enabledChecks);
  suppressions.setFileContents(job.path, job.path, job.text);
  for (const Diagnostic &finding : analysis.diagnostics) {
    // Findings in headers belong to the headers' documents.
    if (finding.location.file != job.path || suppressions.suppresses(finding, job.path))
      continue;
    json diagnostic = {
        {"range", rangeAtColumn(finding.location.line, finding.location.column,
                                lines.line(finding.location.line - 1), encoding_)},
        {"severity", finding.severity == "error" ? kSeverityError : kSeverityWarning},
        {"code", finding.check},
        {"codeDescription", {{"href", ruleDocUrl(finding.check)}}},
        {"source", "gradlint"},
        {"message", finding.message},
    };
    json related = json::array();
    for (const DiagnosticNote &note : finding.notes) {
      const Location &where = note.location;
      bool inDocument = where.file == job.path;
      if (!inDocument && !llvm::sys::path::is_absolute(where.file))
        continue; // a path relative to a directory we do not know: no place to point at
      llvm::StringRef lineText =
          inDocument ? lines.line(where.line - 1) : llvm::StringRef(where.sourceLine);
      related.push_back(
          {{"location",
            {{"uri", inDocument ? job.uri : pathToFileUri(where.file)},
             {"range", rangeAtColumn(where.line, where.column, lineText, encoding_)}}},
           {"message", note.message}});
    }
    if (!related.empty())
      diagnostic["relatedInformation"] = related;

    PublishedFinding entry{diagnostic, std::nullopt};
    // A fix touching another file is not offered: its text there may differ from disk.
    bool local = finding.fix && !finding.fix->edits.empty() &&
                 std::all_of(finding.fix->edits.begin(), finding.fix->edits.end(),
                             [&](const TextEdit &edit) { return edit.file == job.path; });
    if (local) {
      json edits = json::array();
      for (const TextEdit &edit : finding.fix->edits)
        edits.push_back(
            {{"range",
              {{"start", lines.positionOfOffset(edit.offset, encoding_)},
               {"end", lines.positionOfOffset(size_t(edit.offset) + edit.length, encoding_)}}},
             {"newText", edit.replacement}});
      entry.codeAction = json{
          {"title", finding.fix->description + (finding.fix->safe ? "" : " (unsafe)")},
          {"kind", "quickfix"},
          {"isPreferred", finding.fix->safe},
          {"edit", {{"changes", {{job.uri, edits}}}}},
      };
    }
    published.push_back(std::move(entry));
  }
  return published;
}

} // namespace

int runLanguageServer(std::istream &in, std::ostream &out, std::ostream &log,
                      const SetupOptions &commandLine) {
  LanguageServer server(in, out, log, commandLine);
  return server.run();
}

} // namespace gradlint
