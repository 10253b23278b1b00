#include "driver/lsp/Uri.h"

#include "llvm/ADT/StringRef.h"

#include <cctype>

namespace gradlint::lsp {

namespace {

int hexValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

} // namespace

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

} // namespace gradlint::lsp
