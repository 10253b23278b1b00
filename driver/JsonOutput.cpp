#include "Output.h"

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
                                     {"notes", notes}};
    if (const auto &c = diagnostic.confirmation)
      entry["confirmation"] = {{"verdict", c->verdict},
                               {"backend", c->backend},
                               {"accumulation_steps", c->accumulationSteps},
                               {"world_size", c->worldSize},
                               {"rel_error_buggy", c->relErrorBuggy},
                               {"rel_error_fixed", c->relErrorFixed},
                               {"grad_norm_ratio", c->gradNormRatio},
                               {"allreduce_calls_per_step", c->allreduceCallsPerStep},
                               {"detail", c->detail}};
    diagnostics.push_back(entry);
  }
  nlohmann::ordered_json errors = nlohmann::ordered_json::array();
  for (const FileError &error : result.errors)
    errors.push_back({{"file", error.file}, {"message", error.message}});
  nlohmann::ordered_json document = {
      {"diagnostics", diagnostics}, {"errors", errors}, {"files", result.files}};
  // Invalid UTF-8 in a message or path must not abort the output.
  out << document.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
}

} // namespace gradlint
