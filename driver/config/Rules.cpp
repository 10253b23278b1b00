#include "driver/config/Rules.h"

namespace gradlint {

const RuleInfo *findRule(const std::string &id) {
  for (const RuleInfo &rule : allRules())
    if (rule.id == id)
      return &rule;
  return nullptr;
}

} // namespace gradlint
