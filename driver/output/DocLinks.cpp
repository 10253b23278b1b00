// Where findings link to: the published documentation when the build names it
// (GRADLINT_DOCS_URL), else the rule documents installed beside the binary.
#include "driver/analysis/CompilationSetup.h"
#include "driver/config/Rules.h"
#include "driver/output/Output.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cctype>

#ifndef GRADLINT_DOCS_URL
#define GRADLINT_DOCS_URL ""
#endif

namespace gradlint {

namespace {

std::string withoutTrailingSlashes(std::string url) {
  while (!url.empty() && url.back() == '/')
    url.pop_back();
  return url;
}

/// rules/<id>.md, or the suppressions page for gradlint-unused-suppression, relative to the
/// documentation root.
std::string documentFor(const std::string &checkId) {
  if (const RuleInfo *rule = findRule(checkId))
    return rule->docPath;
  return "docs/suppressions.md";
}

/// share/gradlint/rules and share/doc/gradlint (docs/ pages included), installed or in the
/// build tree.
std::string installedDocument(const std::string &document) {
  std::string rulesDir = installedDataDir("rules");
  llvm::StringRef path = document;
  llvm::StringRef anchor;
  if (size_t hash = path.find('#'); hash != llvm::StringRef::npos) {
    anchor = path.substr(hash);
    path = path.substr(0, hash);
  }
  llvm::SmallString<256> file(rulesDir);
  if (path.starts_with("rules/"))
    llvm::sys::path::append(file, path.drop_front(6));
  else
    llvm::sys::path::append(file, "../../doc/gradlint", path);
  llvm::sys::path::remove_dots(file, true);
  if (!llvm::sys::fs::exists(file))
    return {};
  return fileUri(std::string(file)) + anchor.str();
}

} // namespace

std::string encodeUriPath(const std::string &path) {
  static const char *hex = "0123456789ABCDEF";
  std::string encoded;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      encoded.push_back(static_cast<char>(c));
    } else {
      encoded.push_back('%');
      encoded.push_back(hex[c >> 4]);
      encoded.push_back(hex[c & 15]);
    }
  }
  return encoded;
}

std::string fileUri(const std::string &absolute) { return "file://" + encodeUriPath(absolute); }

std::string ruleDocUrlUnder(const std::string &baseUrl, const std::string &checkId) {
  return withoutTrailingSlashes(baseUrl) + "/" + documentFor(checkId);
}

std::string ruleDocUrl(const std::string &checkId) {
  if (*GRADLINT_DOCS_URL)
    return ruleDocUrlUnder(GRADLINT_DOCS_URL, checkId);
  return installedDocument(documentFor(checkId));
}

std::string toolInformationUrl() {
  if (*GRADLINT_DOCS_URL)
    return withoutTrailingSlashes(GRADLINT_DOCS_URL) + "/README.md";
  return installedDocument("README.md");
}

} // namespace gradlint
