// Merging the SARIF logs of gradlint shards into one run.
#pragma once

#include "driver/analysis/Diagnostics.h"

#include <optional>
#include <string>
#include <vector>

namespace gradlint {

/// The logs `inputs` (each written by gradlint --format=sarif, the same
/// version) as one log with one run: rules united (result ruleIndex
/// renumbered), results in input order, one invocation per input. The first
/// log gives the tool and the base URIs. An error names the input at fault.
std::optional<FileError> mergeSarif(const std::vector<std::string> &inputs, std::string &merged);

} // namespace gradlint
