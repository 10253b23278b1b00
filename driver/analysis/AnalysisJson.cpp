#include "driver/analysis/AnalysisJson.h"

#include <nlohmann/json.hpp>

namespace gradlint {

namespace {

using OrderedJson = nlohmann::ordered_json;

OrderedJson locationJson(const Location &location) {
  return {{"file", location.file},
          {"line", location.line},
          {"column", location.column},
          {"source_line", location.sourceLine}};
}

Location locationFrom(const OrderedJson &json) {
  Location location;
  json.at("file").get_to(location.file);
  json.at("line").get_to(location.line);
  json.at("column").get_to(location.column);
  json.at("source_line").get_to(location.sourceLine);
  return location;
}

OrderedJson fixJson(const FixIt &fix) {
  OrderedJson edits = OrderedJson::array();
  for (const TextEdit &edit : fix.edits) {
    OrderedJson item = {{"file", edit.file},
                        {"offset", edit.offset},
                        {"length", edit.length},
                        {"line", edit.line},
                        {"column", edit.column},
                        {"end_line", edit.endLine},
                        {"end_column", edit.endColumn},
                        {"replacement", edit.replacement}};
    if (edit.contentHash)
      item["content_hash"] = *edit.contentHash;
    edits.push_back(std::move(item));
  }
  return {{"description", fix.description}, {"safe", fix.safe}, {"edits", std::move(edits)}};
}

FixIt fixFrom(const OrderedJson &json) {
  FixIt fix;
  json.at("description").get_to(fix.description);
  json.at("safe").get_to(fix.safe);
  for (const OrderedJson &item : json.at("edits")) {
    TextEdit edit;
    item.at("file").get_to(edit.file);
    item.at("offset").get_to(edit.offset);
    item.at("length").get_to(edit.length);
    item.at("line").get_to(edit.line);
    item.at("column").get_to(edit.column);
    item.at("end_line").get_to(edit.endLine);
    item.at("end_column").get_to(edit.endColumn);
    item.at("replacement").get_to(edit.replacement);
    if (item.contains("content_hash"))
      edit.contentHash = item.at("content_hash").get<uint64_t>();
    fix.edits.push_back(std::move(edit));
  }
  return fix;
}

OrderedJson diagnosticJson(const Diagnostic &d) {
  OrderedJson notes = OrderedJson::array();
  for (const DiagnosticNote &note : d.notes)
    notes.push_back({{"location", locationJson(note.location)}, {"message", note.message}});
  OrderedJson json = {
      {"check", d.check},     {"severity", d.severity},    {"location", locationJson(d.location)},
      {"message", d.message}, {"notes", std::move(notes)}, {"fix_applied", d.fixApplied}};
  if (d.conditional)
    json["conditional"] = true;
  if (d.confirmation)
    json["confirmation"] = confirmationToJson(*d.confirmation, /*withTraces=*/true);
  if (d.fix)
    json["fix"] = fixJson(*d.fix);
  return json;
}

Diagnostic diagnosticFrom(const OrderedJson &json) {
  Diagnostic d;
  json.at("check").get_to(d.check);
  json.at("severity").get_to(d.severity);
  d.location = locationFrom(json.at("location"));
  json.at("message").get_to(d.message);
  for (const OrderedJson &note : json.at("notes"))
    d.notes.push_back({locationFrom(note.at("location")), note.at("message").get<std::string>()});
  json.at("fix_applied").get_to(d.fixApplied);
  d.conditional = json.value("conditional", false);
  if (json.contains("confirmation"))
    d.confirmation = confirmationFromJson(json.at("confirmation"));
  if (json.contains("fix"))
    d.fix = fixFrom(json.at("fix"));
  return d;
}

} // namespace

std::vector<std::uint8_t> encodeAnalysis(const FileAnalysis &analysis) {
  OrderedJson diagnostics = OrderedJson::array();
  for (const Diagnostic &diagnostic : analysis.diagnostics)
    diagnostics.push_back(diagnosticJson(diagnostic));
  auto fileErrors = [](const std::vector<FileError> &list) {
    OrderedJson array = OrderedJson::array();
    for (const FileError &error : list)
      array.push_back({{"file", error.file},
                       {"message", error.message},
                       {"line", error.line},
                       {"column", error.column},
                       {"include_not_found", error.includeNotFound}});
    return array;
  };
  OrderedJson runs = OrderedJson::array();
  for (const LoopRun &run : analysis.loopRuns)
    runs.push_back(loopRunToJson(run));
  OrderedJson json = {{"diagnostics", std::move(diagnostics)},
                      {"errors", fileErrors(analysis.errors)},
                      {"notes", fileErrors(analysis.notes)},
                      {"used_api_model", analysis.usedApiModel},
                      {"skipped", analysis.skipped},
                      {"cache_use",
                       {{"hits", analysis.childCacheUse.hits},
                        {"builds", analysis.childCacheUse.builds},
                        {"build_failures", analysis.childCacheUse.buildFailures},
                        {"note", analysis.childCacheUse.note},
                        {"evicted_entries", analysis.childCacheUse.evictedEntries},
                        {"evicted_bytes", analysis.childCacheUse.evictedBytes},
                        {"failed_keys", analysis.childCacheUse.failedKeys},
                        {"unusable", analysis.childCacheUse.unusable}}},
                      {"preamble_use",
                       {{"used", analysis.preambleUse.used},
                        {"built", analysis.preambleUse.built},
                        {"pch", analysis.preambleUse.pch},
                        {"reason", analysis.preambleUse.reason}}},
                      {"real_paths", analysis.realPaths},
                      {"files_read", analysis.filesRead},
                      {"files_absent", analysis.filesAbsent},
                      {"inputs_recorded", analysis.inputsRecorded},
                      {"model_dump", analysis.modelDump},
                      {"loop_runs", std::move(runs)}};
  return OrderedJson::to_cbor(json);
}

std::optional<std::string> decodeAnalysis(const std::vector<std::uint8_t> &bytes,
                                          FileAnalysis &analysis) {
  try {
    OrderedJson json = OrderedJson::from_cbor(bytes);
    FileAnalysis decoded;
    for (const OrderedJson &item : json.at("diagnostics"))
      decoded.diagnostics.push_back(diagnosticFrom(item));
    auto fileErrors = [](const OrderedJson &array, std::vector<FileError> &list) {
      for (const OrderedJson &item : array) {
        FileError error;
        item.at("file").get_to(error.file);
        item.at("message").get_to(error.message);
        item.at("line").get_to(error.line);
        item.at("column").get_to(error.column);
        item.at("include_not_found").get_to(error.includeNotFound);
        list.push_back(std::move(error));
      }
    };
    fileErrors(json.at("errors"), decoded.errors);
    fileErrors(json.at("notes"), decoded.notes);
    json.at("used_api_model").get_to(decoded.usedApiModel);
    json.at("skipped").get_to(decoded.skipped);
    const OrderedJson &cacheUse = json.at("cache_use");
    cacheUse.at("hits").get_to(decoded.childCacheUse.hits);
    cacheUse.at("builds").get_to(decoded.childCacheUse.builds);
    cacheUse.at("build_failures").get_to(decoded.childCacheUse.buildFailures);
    cacheUse.at("note").get_to(decoded.childCacheUse.note);
    cacheUse.at("evicted_entries").get_to(decoded.childCacheUse.evictedEntries);
    cacheUse.at("evicted_bytes").get_to(decoded.childCacheUse.evictedBytes);
    cacheUse.at("failed_keys").get_to(decoded.childCacheUse.failedKeys);
    cacheUse.at("unusable").get_to(decoded.childCacheUse.unusable);
    const OrderedJson &preambleUse = json.at("preamble_use");
    preambleUse.at("used").get_to(decoded.preambleUse.used);
    preambleUse.at("built").get_to(decoded.preambleUse.built);
    preambleUse.at("pch").get_to(decoded.preambleUse.pch);
    preambleUse.at("reason").get_to(decoded.preambleUse.reason);
    json.at("real_paths").get_to(decoded.realPaths);
    json.at("files_read").get_to(decoded.filesRead);
    json.at("files_absent").get_to(decoded.filesAbsent);
    json.at("inputs_recorded").get_to(decoded.inputsRecorded);
    json.at("model_dump").get_to(decoded.modelDump);
    for (const OrderedJson &item : json.at("loop_runs"))
      decoded.loopRuns.push_back(loopRunFromJson(item));
    if (decoded.realPaths.size() != decoded.diagnostics.size())
      return std::string("the result lists ") + std::to_string(decoded.realPaths.size()) +
             " paths for " + std::to_string(decoded.diagnostics.size()) + " findings";
    analysis = std::move(decoded);
    return std::nullopt;
  } catch (const std::exception &error) {
    std::string message = error.what();
    for (char &c : message)
      if (c == '\n')
        c = ' ';
    return message;
  }
}

} // namespace gradlint
