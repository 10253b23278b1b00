#include "driver/config/CheckSelection.h"

#include "llvm/Support/GlobPattern.h"

#include <cctype>
#include <set>

namespace gradlint {

std::optional<std::string> selectChecks(const std::string &globs,
                                        const std::vector<std::string> &available,
                                        std::vector<std::string> &enabled) {
  std::set<std::string> on(available.begin(), available.end());
  size_t start = 0;
  while (start <= globs.size()) {
    size_t comma = globs.find(',', start);
    std::string glob =
        globs.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? globs.size() + 1 : comma + 1;
    // Trim whitespace, as clang-tidy does.
    while (!glob.empty() && std::isspace(static_cast<unsigned char>(glob.front())))
      glob.erase(glob.begin());
    while (!glob.empty() && std::isspace(static_cast<unsigned char>(glob.back())))
      glob.pop_back();
    if (glob.empty())
      continue;
    bool disable = glob[0] == '-';
    std::string pattern = disable ? glob.substr(1) : glob;
    auto compiled = llvm::GlobPattern::create(pattern);
    if (!compiled) {
      llvm::consumeError(compiled.takeError());
      return "invalid check glob '" + glob + "'";
    }
    bool matched = false;
    for (const std::string &id : available) {
      if (!compiled->match(id))
        continue;
      matched = true;
      if (disable)
        on.erase(id);
      else
        on.insert(id);
    }
    if (!matched && pattern != "*")
      return "unknown check '" + pattern + "' (see --list-checks)";
  }
  enabled.clear();
  for (const std::string &id : available)
    if (on.count(id))
      enabled.push_back(id);
  return std::nullopt;
}

} // namespace gradlint
