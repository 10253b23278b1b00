// gradlint merge-sarif: the SARIF logs of shards (--shard=K/N on a CI matrix)
// as one run, which is what GitHub code scanning wants from one tool.
#include "driver/output/SarifMerge.h"

#include "driver/analysis/BoundedFile.h"

#include "llvm/Support/MemoryBuffer.h"

#include <nlohmann/json.hpp>

#include <map>

namespace gradlint {

namespace {

using Json = nlohmann::json;

constexpr uint64_t kMaxSarifBytes = 1ull << 30;

/// The one gradlint run of a log, or a one-line reason it is not one.
std::optional<std::string> gradlintRun(const Json &log, const Json *&run) {
  if (!log.is_object() || log.value("version", "") != "2.1.0")
    return "not a SARIF 2.1.0 log";
  if (!log.contains("runs") || !log["runs"].is_array() || log["runs"].size() != 1)
    return "expected one run (a log written by gradlint --format=sarif)";
  run = &log["runs"][0];
  const Json *driver = run->contains("tool") ? &(*run)["tool"]["driver"] : nullptr;
  if (!driver || !driver->is_object() || driver->value("name", "") != "gradlint")
    return "its run is not gradlint's";
  return std::nullopt;
}

} // namespace

std::optional<FileError> mergeSarif(const std::vector<std::string> &inputs, std::string &merged) {
  Json out;
  Json *mergedRun = nullptr;
  std::map<std::string, size_t> ruleIndex;
  for (const std::string &input : inputs) {
    std::unique_ptr<llvm::MemoryBuffer> buffer;
    if (auto failure = readBoundedFile(input, kMaxSarifBytes, "a SARIF log", buffer))
      return FileError{input, failure->problem.empty() ? "cannot read: " + failure->io.message()
                                                       : failure->problem};
    Json log = Json::parse(buffer->getBuffer().begin(), buffer->getBuffer().end(), nullptr,
                           /*allow_exceptions=*/false);
    if (log.is_discarded())
      return FileError{input, "not valid JSON"};
    const Json *run = nullptr;
    if (auto problem = gradlintRun(log, run))
      return FileError{input, *problem};
    if (!mergedRun) {
      // The first log gives the tool, the base URIs and the column kind.
      out = log;
      mergedRun = &out["runs"][0];
      (*mergedRun)["tool"]["driver"]["rules"] = Json::array();
      (*mergedRun)["results"] = Json::array();
      (*mergedRun)["invocations"] = Json::array();
    } else if ((*run)["tool"]["driver"].value("version", "") !=
               (*mergedRun)["tool"]["driver"].value("version", "")) {
      return FileError{input, "written by gradlint " +
                                  (*run)["tool"]["driver"].value("version", "?") + ", not " +
                                  (*mergedRun)["tool"]["driver"].value("version", "?") +
                                  " like the first log"};
    }
    Json &rules = (*mergedRun)["tool"]["driver"]["rules"];
    std::vector<size_t> remap;
    for (const Json &rule : run->value("/tool/driver/rules"_json_pointer, Json::array())) {
      std::string id = rule.value("id", "");
      auto [found, added] = ruleIndex.emplace(id, rules.size());
      if (added)
        rules.push_back(rule);
      remap.push_back(found->second);
    }
    for (Json result : run->value("results", Json::array())) {
      if (result.contains("ruleIndex") && result["ruleIndex"].is_number_unsigned() &&
          result["ruleIndex"].get<size_t>() < remap.size())
        result["ruleIndex"] = remap[result["ruleIndex"].get<size_t>()];
      (*mergedRun)["results"].push_back(std::move(result));
    }
    // One invocation per shard: each keeps its notifications and success.
    for (const Json &invocation : run->value("invocations", Json::array()))
      (*mergedRun)["invocations"].push_back(invocation);
  }
  if (!mergedRun)
    return FileError{"", "no SARIF logs to merge"};
  merged = out.dump(2) + "\n";
  return std::nullopt;
}

} // namespace gradlint
