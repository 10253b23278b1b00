// GitHub Actions workflow commands: each finding becomes an annotation on the
// pull request's diff (::warning file=...,line=...,col=...,title=...::message).
#include "driver/output/Output.h"

#include "confirm/Confirm.h"

namespace gradlint {

namespace {

/// The message part of a workflow command: '%', CR and LF are encoded.
std::string escapeData(const std::string &text) {
  std::string escaped;
  for (char c : text) {
    if (c == '%')
      escaped += "%25";
    else if (c == '\r')
      escaped += "%0D";
    else if (c == '\n')
      escaped += "%0A";
    else
      escaped.push_back(c);
  }
  return escaped;
}

/// A property value also encodes ':' and ',', which separate the properties.
std::string escapeProperty(const std::string &text) {
  std::string escaped;
  for (char c : escapeData(text)) {
    if (c == ':')
      escaped += "%3A";
    else if (c == ',')
      escaped += "%2C";
    else
      escaped.push_back(c);
  }
  return escaped;
}

std::string position(const Location &location) {
  return projectRelativePath(location.file) + ":" + std::to_string(location.line) + ":" +
         std::to_string(location.column);
}

} // namespace

void writeGithub(const RunResult &result, std::ostream &out) {
  for (const Diagnostic &diagnostic : result.diagnostics) {
    // The notes and the confirmation go into the annotation's body, one line each.
    std::string message = displayedMessage(diagnostic);
    for (const DiagnosticNote &note : diagnostic.notes)
      message += "\n" + position(note.location) + ": note: " + note.message;
    if (const auto &c = diagnostic.confirmation)
      message += "\n" + c->verdict + " on " + c->backend + ": " + c->detail +
                 (c->setting.optimizer.empty() ? "" : "\n" + confirmationContext(*c));
    out << "::"
        << (diagnostic.severity == "error" ? "error"
            : diagnostic.conditional       ? "notice"
                                           : "warning")
        << " file=" << escapeProperty(projectRelativePath(diagnostic.location.file))
        << ",line=" << diagnostic.location.line << ",col=" << diagnostic.location.column
        << ",title=" << escapeProperty(diagnostic.check) << "::" << escapeData(message) << '\n';
  }
  auto fileLevel = [&](const FileError &error, const char *command) {
    out << "::" << command;
    if (!error.file.empty())
      out << " file=" << escapeProperty(projectRelativePath(error.file));
    if (!error.file.empty() && error.line)
      out << ",line=" << error.line << ",col=" << error.column;
    out << "::" << escapeData(error.message) << '\n';
  };
  for (const FileError &note : result.notes)
    fileLevel(note, "notice");
  for (const FileError &error : result.errors)
    fileLevel(error, "error");
}

} // namespace gradlint
