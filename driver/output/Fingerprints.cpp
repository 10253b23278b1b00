// Fingerprints that identify a finding across runs (SARIF's
// partialFingerprints, GitLab's fingerprint): no line numbers, so inserting
// lines above a finding keeps its fingerprint.
#include "driver/output/Output.h"

#include "driver/analysis/CompilationSetup.h"

#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

namespace gradlint {

namespace {

/// The source line as a fingerprint sees it: comments dropped (so adding a
/// NOLINT or a remark does not move the finding) and whitespace collapsed.
std::string normalisedLine(const std::string &line) {
  std::string code;
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote) {
      code.push_back(c);
      if (c == '\\' && i + 1 < line.size())
        code.push_back(line[++i]);
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') {
      break;
    } else if (c == '/' && i + 1 < line.size() && line[i + 1] == '*') {
      size_t close = line.find("*/", i + 2);
      if (close == std::string::npos)
        break;
      i = close + 1;
      code.push_back(' ');
      continue;
    }
    code.push_back(c);
  }
  std::string normalised;
  for (char c : code) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!normalised.empty() && normalised.back() != ' ')
        normalised.push_back(' ');
    } else {
      normalised.push_back(c);
    }
  }
  if (!normalised.empty() && normalised.back() == ' ')
    normalised.pop_back();
  return normalised;
}

} // namespace

std::string hexDigest(const std::string &text, size_t bytes) {
  static const char *hex = "0123456789abcdef";
  auto digest = llvm::SHA256::hash(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  std::string result;
  for (size_t i = 0; i < bytes && i < digest.size(); ++i) {
    result.push_back(hex[digest[i] >> 4]);
    result.push_back(hex[digest[i] & 15]);
  }
  return result;
}

std::map<const Diagnostic *, std::string> stableFingerprints(std::vector<const Diagnostic *> all) {
  std::map<const Diagnostic *, std::string> fingerprints;
  std::stable_sort(all.begin(), all.end(), [](const Diagnostic *a, const Diagnostic *b) {
    return std::tie(a->location.file, a->location.line, a->location.column) <
           std::tie(b->location.file, b->location.line, b->location.column);
  });
  std::map<std::tuple<std::string, std::string, std::string>, unsigned> occurrences;
  for (const Diagnostic *diagnostic : all) {
    std::string line = normalisedLine(diagnostic->location.sourceLine);
    unsigned index = occurrences[{diagnostic->location.file, diagnostic->check, line}]++;
    fingerprints[diagnostic] =
        hexDigest(diagnostic->check + '\0' + line + '\0' + std::to_string(index), 16) + ":" +
        std::to_string(index + 1);
  }
  return fingerprints;
}

} // namespace gradlint
