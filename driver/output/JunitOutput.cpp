// JUnit XML, which most CI systems (GitLab, Jenkins, Azure, CircleCI) show as
// test results: one test suite per analysed file, one failing test case per
// finding, an erroring one per file error, a passing one for a clean file.
#include "driver/output/Output.h"

#include <map>
#include <set>

namespace gradlint {

namespace {

/// Text and attribute values of XML 1.0: markup characters escaped; control
/// characters XML cannot hold become U+FFFD.
std::string escapeXml(const std::string &text) {
  std::string escaped;
  for (char c : text) {
    unsigned char byte = static_cast<unsigned char>(c);
    switch (c) {
    case '&': escaped += "&amp;"; break;
    case '<': escaped += "&lt;"; break;
    case '>': escaped += "&gt;"; break;
    case '"': escaped += "&quot;"; break;
    case '\n': escaped += "&#10;"; break;
    default:
      if (byte < 0x20 && c != '\t' && c != '\r')
        escaped += "\xEF\xBF\xBD";
      else
        escaped.push_back(c);
    }
  }
  return escaped;
}

struct FileCases {
  std::vector<const Diagnostic *> findings;
  std::vector<const FileError *> errors;
};

} // namespace

void writeJunit(const RunResult &result, std::ostream &out) {
  // Files in the order given, then any other file a finding or error is in.
  std::vector<std::string> order;
  std::map<std::string, FileCases> byFile;
  auto fileCases = [&](const std::string &file) -> FileCases & {
    std::string path = projectRelativePath(file);
    if (!byFile.count(path))
      order.push_back(path);
    return byFile[path];
  };
  for (const std::string &file : result.fileNames)
    fileCases(file);
  for (const Diagnostic &diagnostic : result.diagnostics)
    fileCases(diagnostic.location.file).findings.push_back(&diagnostic);
  for (const FileError &error : result.errors)
    fileCases(error.file).errors.push_back(&error);

  size_t tests = 0, failures = 0, errors = 0;
  for (const auto &[path, cases] : byFile) {
    tests += std::max<size_t>(1, cases.findings.size() + cases.errors.size());
    failures += cases.findings.size();
    errors += cases.errors.size();
  }
  auto counts = [](size_t t, size_t f, size_t e) {
    return " tests=\"" + std::to_string(t) + "\" failures=\"" + std::to_string(f) + "\" errors=\"" +
           std::to_string(e) + "\"";
  };
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"gradlint\"" << counts(tests, failures, errors) << ">\n";
  for (const std::string &path : order) {
    const FileCases &cases = byFile[path];
    size_t fileTests = std::max<size_t>(1, cases.findings.size() + cases.errors.size());
    out << "  <testsuite name=\"" << escapeXml(path) << "\""
        << counts(fileTests, cases.findings.size(), cases.errors.size()) << " skipped=\"0\">\n";
    for (const Diagnostic *diagnostic : cases.findings) {
      const Location &at = diagnostic->location;
      std::string where = path + ":" + std::to_string(at.line) + ":" + std::to_string(at.column);
      std::string detail = where + ": " + displayedMessage(*diagnostic);
      for (const DiagnosticNote &note : diagnostic->notes)
        detail += "\n" + projectRelativePath(note.location.file) + ":" +
                  std::to_string(note.location.line) + ": note: " + note.message;
      out << "    <testcase classname=\"" << escapeXml(path) << "\" name=\""
          << escapeXml(diagnostic->check + " at line " + std::to_string(at.line) + ":" +
                       std::to_string(at.column))
          << "\" file=\"" << escapeXml(path) << "\" line=\"" << at.line << "\">\n"
          << "      <failure type=\"" << escapeXml(diagnostic->check) << "\" message=\""
          << escapeXml(displayedMessage(*diagnostic)) << "\">" << escapeXml(detail)
          << "</failure>\n"
          << "    </testcase>\n";
    }
    for (const FileError *error : cases.errors)
      out << "    <testcase classname=\"" << escapeXml(path) << "\" name=\"analysis\" file=\""
          << escapeXml(path) << "\">\n"
          << "      <error type=\"gradlint-file-error\" message=\"" << escapeXml(error->message)
          << "\">" << escapeXml(error->where() + ": " + error->message) << "</error>\n"
          << "    </testcase>\n";
    if (cases.findings.empty() && cases.errors.empty())
      out << "    <testcase classname=\"" << escapeXml(path)
          << "\" name=\"no gradlint findings\" file=\"" << escapeXml(path) << "\"/>\n";
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

} // namespace gradlint
