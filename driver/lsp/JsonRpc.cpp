#include "driver/lsp/JsonRpc.h"

#include <cctype>

namespace gradlint {

namespace {

/// Largest body accepted; a bigger Content-Length is treated as garbage.
constexpr size_t kMaxBodyBytes = 256u << 20;

/// Longest header line kept; the rest of a longer one is skipped.
constexpr size_t kMaxHeaderLineBytes = 64u << 10;

/// std::getline that keeps at most kMaxHeaderLineBytes of the line.
bool readHeaderLine(std::istream &in, std::string &line) {
  line.clear();
  std::streambuf *buffer = in.rdbuf();
  for (;;) {
    int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return !line.empty();
    }
    if (c == '\n')
      return true;
    if (line.size() < kMaxHeaderLineBytes)
      line.push_back(static_cast<char>(c));
  }
}

std::string lowercase(std::string text) {
  for (char &c : text)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

/// The value of a Content-Length header found anywhere in `line`; nullopt
/// when the line has none or its value is not a number.
std::optional<size_t> contentLength(const std::string &line, bool &found) {
  static const std::string kName = "content-length:";
  size_t at = lowercase(line).find(kName);
  found = at != std::string::npos;
  if (!found)
    return std::nullopt;
  size_t i = at + kName.size();
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
    ++i;
  size_t value = 0, digits = 0;
  for (; i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])); ++i, ++digits) {
    value = value * 10 + static_cast<size_t>(line[i] - '0');
    if (value > kMaxBodyBytes)
      return std::nullopt;
  }
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
    ++i;
  if (digits == 0 || i != line.size())
    return std::nullopt;
  return value;
}

} // namespace

std::optional<std::string> jsonNestingProblem(const std::string &body) {
  size_t depth = 0;
  bool inString = false;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonNesting)
        return "nested deeper than " + std::to_string(kMaxJsonNesting) + " levels";
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

std::optional<RpcFrame> RpcReader::next() {
  RpcFrame frame;
  std::optional<size_t> length;
  bool sawHeader = false;
  std::string line;
  while (readHeaderLine(in_, line)) {
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (line.empty()) {
      if (!sawHeader)
        continue; // stray blank lines between frames
      if (!length) {
        frame.problem = "frame without a valid Content-Length header; skipped";
        return frame;
      }
      frame.body.resize(*length);
      in_.read(frame.body.data(), static_cast<std::streamsize>(*length));
      if (static_cast<size_t>(in_.gcount()) != *length)
        return std::nullopt; // the stream ended inside the body
      return frame;
    }
    bool isLengthHeader = false;
    std::optional<size_t> value = contentLength(line, isLengthHeader);
    if (isLengthHeader) {
      // A new Content-Length starts a new header block (resynchronising after garbage).
      sawHeader = true;
      length = value;
    } else if (sawHeader || line.find(':') != std::string::npos) {
      sawHeader = true; // another header, e.g. Content-Type
    }
  }
  return std::nullopt;
}

void RpcWriter::send(const nlohmann::json &message) {
  // Invalid UTF-8 in a message (from a source file) is replaced, never thrown on.
  std::string body = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::lock_guard<std::mutex> guard(mutex_);
  out_ << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  out_.flush();
}

void RpcWriter::respond(const nlohmann::json &id, nlohmann::json result) {
  send({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void RpcWriter::respondError(const nlohmann::json &id, int code, const std::string &message) {
  send({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
}

void RpcWriter::notify(const std::string &method, nlohmann::json params) {
  send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

} // namespace gradlint
