// FileAnalysis as JSON, for handing one translation unit's result from the
// isolated child process to the parent (driver/analysis/Isolation.cpp).
#pragma once

#include "driver/analysis/Analyzer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gradlint {

/// Every field of `analysis`, as CBOR-encoded JSON: CBOR keeps source bytes
/// that are not UTF-8 and NaN/infinite figures exactly, which JSON text cannot.
std::vector<std::uint8_t> encodeAnalysis(const FileAnalysis &analysis);

/// The inverse; a one-line error when `bytes` is not a complete encoding.
std::optional<std::string> decodeAnalysis(const std::vector<std::uint8_t> &bytes,
                                          FileAnalysis &analysis);

} // namespace gradlint
