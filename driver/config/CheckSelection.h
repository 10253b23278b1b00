// Which checks run: clang-tidy style globs ("-*,accum-*") over the check ids,
// as --checks, .gradlint.yaml's Checks and an editor's settings write them.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gradlint {

/// Applies clang-tidy style globs ("-*,accum-*") to the registered check ids,
/// in order. Returns a one-line error for a glob that matches no check.
std::optional<std::string> selectChecks(const std::string &globs,
                                        const std::vector<std::string> &available,
                                        std::vector<std::string> &enabled);

} // namespace gradlint
