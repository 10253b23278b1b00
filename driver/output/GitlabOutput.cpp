// GitLab's Code Quality report (artifacts:reports:codequality): a JSON array
// of issues, shown in merge requests and on the changed lines.
#include "driver/output/Output.h"

#include <nlohmann/json.hpp>

namespace gradlint {

namespace {

using Json = nlohmann::json;

/// Code Quality's severities: info, minor, major, critical, blocker.
const char *severityOf(const std::string &gradlintSeverity) {
  return gradlintSeverity == "error" ? "critical" : "major";
}

Json issue(const std::string &checkName, const std::string &description, const char *severity,
           const std::string &path, unsigned line, unsigned column,
           const std::string &fingerprint) {
  Json begin = {{"line", line ? line : 1}};
  if (column)
    begin["column"] = column;
  return {{"type", "issue"},
          {"check_name", checkName},
          {"description", description},
          {"categories", {"Bug Risk"}},
          {"severity", severity},
          {"fingerprint", fingerprint},
          {"location", {{"path", path}, {"positions", {{"begin", begin}, {"end", begin}}}}}};
}

} // namespace

void writeGitlab(const RunResult &result, std::ostream &out) {
  std::vector<const Diagnostic *> all;
  for (const Diagnostic &diagnostic : result.diagnostics)
    all.push_back(&diagnostic);
  std::map<const Diagnostic *, std::string> perFile = stableFingerprints(all);
  Json issues = Json::array();
  for (const Diagnostic &diagnostic : result.diagnostics) {
    std::string path = projectRelativePath(diagnostic.location.file);
    std::string body;
    for (const DiagnosticNote &note : diagnostic.notes) {
      std::string where =
          note.location.file == diagnostic.location.file
              ? "line " + std::to_string(note.location.line)
              : projectRelativePath(note.location.file) + ":" + std::to_string(note.location.line);
      body += "- " + where + ": " + note.message + "\n";
    }
    Json entry = issue(diagnostic.check, displayedMessage(diagnostic),
                       diagnostic.conditional ? "info" : severityOf(diagnostic.severity), path,
                       diagnostic.location.line, diagnostic.location.column,
                       // Unique in the report: the file, then the finding within it.
                       hexDigest(path + '\0' + perFile.at(&diagnostic), 16));
    if (!body.empty())
      entry["content"] = {{"body", body}};
    issues.push_back(std::move(entry));
  }
  // A file gradlint could not analyse may hide findings: a blocker, so the
  // merge request shows it.
  for (const FileError &error : result.errors) {
    std::string path = projectRelativePath(error.file);
    issues.push_back(issue(
        "gradlint-file-error", error.message, "blocker", path, error.line, error.column,
        hexDigest(std::string("gradlint-file-error") + '\0' + path + '\0' + error.message, 16)));
  }
  out << issues.dump(2) << '\n';
}

} // namespace gradlint
