// Output formats; each lives in its own file.
#pragma once

#include "driver/analysis/Diagnostics.h"

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace gradlint {

/// clang's format: file:line:col: warning: message [check], source line, caret, notes.
/// The finding's message as the text formats show it: a conditional finding
/// (--inconclusive) says so first.
inline std::string displayedMessage(const Diagnostic &diagnostic) {
  return (diagnostic.conditional ? "(conditional) " : "") + diagnostic.message;
}

void writeText(const RunResult &result, std::ostream &out, bool color);
/// The JSON contract: {"diagnostics": [...], "errors": [...], "notes": [...], "files": N}.
void writeJson(const RunResult &result, std::ostream &out);
/// SARIF 2.1.0 for GitHub code scanning. `suppressed` (findings silenced by
/// NOLINT comments) are kept as results with an inSource suppression.
void writeSarif(const RunResult &result, const std::vector<Diagnostic> &suppressed,
                std::ostream &out);
/// GitHub Actions workflow commands: one ::warning / ::error per finding and file error.
void writeGithub(const RunResult &result, std::ostream &out);
/// A Markdown summary for a pull-request comment; `confirm`: show --confirm's figures.
void writeMarkdown(const RunResult &result, size_t suppressedCount, bool confirm,
                   std::ostream &out);

/// GitLab's Code Quality report: a JSON array of issues (file errors are blockers).
void writeGitlab(const RunResult &result, std::ostream &out);
/// JUnit XML: a test suite per file, a failing test case per finding.
void writeJunit(const RunResult &result, std::ostream &out);

/// --statistics: one line per check (count, check, how many --fix fixes) and
/// a total; with `json`, an array of {check, count, fixable, fixable_unsafe}.
void writeStatistics(const RunResult &result, bool json, std::ostream &out);

/// Per finding: its check id, its source line without comments and
/// whitespace runs, and how many equal (file, check, line) findings precede
/// it, hashed, then ":<occurrence>". No line numbers, so inserting lines above
/// a finding keeps its fingerprint; unique within a file.
std::map<const Diagnostic *, std::string>
stableFingerprints(std::vector<const Diagnostic *> diagnostics);
/// The first `bytes` bytes of SHA-256(`text`), in hex.
std::string hexDigest(const std::string &text, size_t bytes);

/// A check's documentation: rules/<id>.md (docs/suppressions.md for
/// gradlint-unused-suppression) under the GRADLINT_DOCS_URL the build was
/// configured with, else the installed copy as a file:// URI; "" when neither.
std::string ruleDocUrl(const std::string &checkId);
/// The same under an explicit base URL (no trailing slash needed).
std::string ruleDocUrlUnder(const std::string &baseUrl, const std::string &checkId);
/// gradlint's README, found the same way; "" when neither.
std::string toolInformationUrl();
/// Percent-encodes all but unreserved characters and '/' (RFC 3986).
std::string encodeUriPath(const std::string &path);
/// file:// URI of an absolute path, percent-encoded.
std::string fileUri(const std::string &absolute);
/// The git work tree containing `file` (absolute, real path), or "" when there is none.
std::string gitWorkTreeRoot(const std::string &file);
/// `file` relative to its git work tree, else to the current directory; as
/// given when it lies under neither.
std::string projectRelativePath(const std::string &file);

} // namespace gradlint
