#include "driver/output/Output.h"

#include "confirm/Confirm.h"

namespace gradlint {

namespace {

void writeCaret(const Location &location, std::ostream &out) {
  if (location.sourceLine.empty())
    return;
  out << location.sourceLine << '\n';
  std::string pad;
  for (unsigned i = 1; i < location.column && i - 1 < location.sourceLine.size(); ++i)
    pad.push_back(location.sourceLine[i - 1] == '\t' ? '\t' : ' ');
  out << pad << "^\n";
}

void writeHeader(const Location &location, const char *kind, const std::string &message,
                 std::ostream &out, bool color) {
  const char *bold = color ? "\033[1m" : "";
  const char *reset = color ? "\033[0m" : "";
  const char *kindColor = !color ? ""
                                 : (kind[0] == 'w'   ? "\033[1;35m"
                                    : kind[0] == 'e' ? "\033[1;31m"
                                                     : "\033[1;30m");
  out << bold << location.file << ':' << location.line << ':' << location.column << ": " << reset
      << kindColor << kind << ": " << reset << bold << message << reset;
}

} // namespace

void writeText(const RunResult &result, std::ostream &out, bool color) {
  for (const Diagnostic &diagnostic : result.diagnostics) {
    writeHeader(diagnostic.location, diagnostic.severity.c_str(), displayedMessage(diagnostic), out,
                color);
    out << " [" << diagnostic.check << "]\n";
    writeCaret(diagnostic.location, out);
    for (const DiagnosticNote &note : diagnostic.notes) {
      writeHeader(note.location, "note", note.message, out, color);
      out << '\n';
      writeCaret(note.location, out);
    }
    if (const auto &c = diagnostic.confirmation) {
      writeHeader(diagnostic.location, "note", c->verdict + " on " + c->backend + ": " + c->detail,
                  out, color);
      out << '\n';
      if (!c->setting.optimizer.empty()) {
        writeHeader(diagnostic.location, "note", confirmationContext(*c), out, color);
        out << '\n';
      }
    }
    if (const auto &fix = diagnostic.fix) {
      std::string what = diagnostic.fixApplied ? "fix applied: " + fix->description
                         : fix->safe
                             ? "fix available (--fix): " + fix->description
                             : "unsafe fix available (--fix --unsafe-fixes): " + fix->description;
      writeHeader(diagnostic.location, "note", what, out, color);
      out << '\n';
    }
  }
}

} // namespace gradlint
