// A Markdown summary to post as a pull-request comment: counts, then the
// findings of each file in a table, with the rule documents linked.
#include "driver/output/Output.h"

#include <map>

namespace gradlint {

namespace {

/// Text inside a table cell: Markdown's inline syntax and the cell separator escaped.
std::string escapeMarkdown(const std::string &text) {
  std::string escaped;
  for (char c : text) {
    if (c == '\n' || c == '\r') {
      escaped += ' ';
      continue;
    }
    if (std::string("\\`*_[]<>|#~").find(c) != std::string::npos)
      escaped.push_back('\\');
    escaped.push_back(c);
  }
  return escaped;
}

/// A code span that survives backticks in the text.
std::string codeSpan(const std::string &text) {
  std::string fence = text.find('`') == std::string::npos ? "`" : "`` ";
  std::string close = fence == "`" ? "`" : " ``";
  return fence + text + close;
}

std::string plural(size_t count, const char *singular, const char *pluralForm) {
  return std::to_string(count) + " " + (count == 1 ? singular : pluralForm);
}

} // namespace

void writeMarkdown(const RunResult &result, size_t suppressedCount, bool confirm,
                   std::ostream &out) {
  size_t errorFindings = 0;
  std::vector<std::string> fileOrder;
  std::map<std::string, std::vector<const Diagnostic *>> byFile;
  for (const Diagnostic &diagnostic : result.diagnostics) {
    errorFindings += diagnostic.severity == "error";
    std::string file = projectRelativePath(diagnostic.location.file);
    if (!byFile.count(file))
      fileOrder.push_back(file);
    byFile[file].push_back(&diagnostic);
  }

  std::string analysed = plural(result.files, "file", "files") + " analysed";
  if (result.diagnostics.empty()) {
    out << "## gradlint: no findings\n\nNo findings in " << analysed << ".";
  } else {
    size_t warnings = result.diagnostics.size() - errorFindings;
    out << "## gradlint: " << plural(result.diagnostics.size(), "finding", "findings") << " in "
        << plural(fileOrder.size(), "file", "files") << "\n\n"
        << (errorFindings ? plural(errorFindings, "error", "errors") + ", " : std::string())
        << plural(warnings, "warning", "warnings") << "; " << analysed << ".";
  }
  if (suppressedCount)
    out << " " << plural(suppressedCount, "finding", "findings")
        << " suppressed by NOLINT comments " << (suppressedCount == 1 ? "is" : "are")
        << " not shown.";
  if (!result.errors.empty())
    out << " " << plural(result.errors.size(), "file error", "file errors") << " (below).";
  out << "\n";

  for (const std::string &file : fileOrder) {
    out << "\n### " << codeSpan(file) << "\n\n";
    out << (confirm ? "| Line | Check | Message | Confirmation |\n|---:|---|---|---|\n"
                    : "| Line | Check | Message |\n|---:|---|---|\n");
    for (const Diagnostic *diagnostic : byFile[file]) {
      // A pull-request comment is read elsewhere: no file:// links to this machine.
      std::string docUrl = ruleDocUrl(diagnostic->check);
      if (docUrl.rfind("http", 0) != 0)
        docUrl.clear();
      out << "| " << diagnostic->location.line << ":" << diagnostic->location.column << " | "
          << (docUrl.empty() ? escapeMarkdown(diagnostic->check)
                             : "[" + escapeMarkdown(diagnostic->check) + "](" + docUrl + ")")
          << " | " << escapeMarkdown(displayedMessage(*diagnostic)) << " |";
      if (confirm) {
        if (const auto &c = diagnostic->confirmation)
          out << " **" << escapeMarkdown(c->verdict) << "** on " << escapeMarkdown(c->backend)
              << ": " << escapeMarkdown(c->detail) << " |";
        else
          out << " not run |";
      }
      out << "\n";
    }
  }

  if (!result.notes.empty()) {
    out << "\n### Notes\n\n";
    for (const FileError &note : result.notes)
      out << "- " << codeSpan(note.where()) << ": " << escapeMarkdown(note.message) << "\n";
  }
  if (!result.errors.empty()) {
    out << "\n### Errors\n\n";
    for (const FileError &error : result.errors)
      out << "- " << codeSpan(error.where()) << ": " << escapeMarkdown(error.message) << "\n";
  }
}

} // namespace gradlint
