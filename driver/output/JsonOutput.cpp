#include "driver/output/Output.h"

#include <nlohmann/json.hpp>

namespace gradlint {

void writeJson(const RunResult &result, std::ostream &out) {
  nlohmann::ordered_json diagnostics = nlohmann::ordered_json::array();
  for (const Diagnostic &diagnostic : result.diagnostics) {
    nlohmann::ordered_json notes = nlohmann::ordered_json::array();
    for (const DiagnosticNote &note : diagnostic.notes)
      notes.push_back({{"file", note.location.file},
                       {"line", note.location.line},
                       {"column", note.location.column},
                       {"message", note.message}});
    nlohmann::ordered_json entry = {{"check", diagnostic.check},
                                    {"severity", diagnostic.severity},
                                    {"file", diagnostic.location.file},
                                    {"line", diagnostic.location.line},
                                    {"column", diagnostic.location.column},
                                    {"message", diagnostic.message},
                                    {"conditional", diagnostic.conditional},
                                    {"notes", notes}};
    if (const auto &c = diagnostic.confirmation)
      entry["confirmation"] = confirmationToJson(*c);
    if (const auto &fix = diagnostic.fix) {
      // Each edit by line and column (1-based, end exclusive) and by byte offset.
      nlohmann::ordered_json edits = nlohmann::ordered_json::array();
      for (const TextEdit &edit : fix->edits)
        edits.push_back({{"file", edit.file},
                         {"line", edit.line},
                         {"column", edit.column},
                         {"end_line", edit.endLine},
                         {"end_column", edit.endColumn},
                         {"offset", edit.offset},
                         {"length", edit.length},
                         {"replacement", edit.replacement}});
      entry["fix"] = {{"description", fix->description}, {"safe", fix->safe}, {"edits", edits}};
    }
    diagnostics.push_back(entry);
  }
  auto fileLevel = [](const std::vector<FileError> &list) {
    nlohmann::ordered_json array = nlohmann::ordered_json::array();
    for (const FileError &error : list) {
      nlohmann::ordered_json entry = {{"file", error.file}, {"message", error.message}};
      if (error.line) {
        entry["line"] = error.line;
        entry["column"] = error.column;
      }
      array.push_back(entry);
    }
    return array;
  };
  nlohmann::ordered_json document = {{"diagnostics", diagnostics},
                                     {"errors", fileLevel(result.errors)},
                                     {"notes", fileLevel(result.notes)},
                                     {"files", result.files},
                                     {"hidden_conditional", result.hiddenConditional}};
  // Invalid UTF-8 in a message or path must not abort the output.
  out << document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
}

} // namespace gradlint
