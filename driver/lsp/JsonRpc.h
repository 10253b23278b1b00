// JSON-RPC 2.0 messages over a byte stream with LSP's base protocol framing
// (`Content-Length: N\r\n\r\n` followed by N bytes of JSON).
#pragma once

#include <nlohmann/json.hpp>

#include <istream>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>

namespace gradlint {

/// JSON-RPC / LSP error codes.
namespace rpc_error {
constexpr int ParseError = -32700;
constexpr int InvalidRequest = -32600;
constexpr int MethodNotFound = -32601;
constexpr int InvalidParams = -32602;
constexpr int ServerNotInitialized = -32002;
constexpr int RequestCancelled = -32800;
} // namespace rpc_error

/// Deepest nesting of arrays and objects a message may have. LSP's own
/// messages nest about 8 deep; the JSON library copies and destroys values
/// recursively, so 600,000 nested '[' overflowed the stack.
constexpr size_t kMaxJsonNesting = 256;

/// Why `body` is refused before it is parsed (nested deeper than
/// kMaxJsonNesting), or nullopt. Brackets inside strings do not count.
std::optional<std::string> jsonNestingProblem(const std::string &body);

/// One frame read from the stream: its body, or why it could not be read.
struct RpcFrame {
  std::string body;
  std::string problem; ///< non-empty: the frame was malformed and skipped
};

/// Reads frames. A malformed header block (no usable Content-Length) is
/// reported and skipped; reading then resynchronises on the next
/// `Content-Length:` header, even one glued to leftover bytes. Bodies are
/// capped at 256 MiB and header lines at 64 KiB (the rest of a longer line
/// is skipped), so no input grows memory without bound.
class RpcReader {
public:
  explicit RpcReader(std::istream &in) : in_(in) {}
  /// The next frame, or nullopt at the end of the stream.
  std::optional<RpcFrame> next();

private:
  std::istream &in_;
};

/// Writes whole frames; safe to call from several threads.
class RpcWriter {
public:
  explicit RpcWriter(std::ostream &out) : out_(out) {}
  void send(const nlohmann::json &message);
  void respond(const nlohmann::json &id, nlohmann::json result);
  void respondError(const nlohmann::json &id, int code, const std::string &message);
  void notify(const std::string &method, nlohmann::json params);
  /// Holds the stream so that no frame is cut in half, e.g. while exiting.
  std::unique_lock<std::mutex> lock() { return std::unique_lock<std::mutex>(mutex_); }

private:
  std::ostream &out_;
  std::mutex mutex_;
};

} // namespace gradlint
