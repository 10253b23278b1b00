// Rule metadata, generated from rules/*.md (see rules/embed_rules.cmake).
#pragma once

#include <string>
#include <vector>

namespace gradlint {

struct RuleInfo {
  std::string id;
  std::string severity; ///< "warning" or "error"
  std::string summary;  ///< one sentence
  std::string docPath;  ///< rules/<id>.md, relative to the repository
  std::string markdown; ///< the whole document
};

const std::vector<RuleInfo> &allRules();
const RuleInfo *findRule(const std::string &id);

} // namespace gradlint
