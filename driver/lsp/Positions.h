// Positions: gradlint counts 1-based lines and byte columns; LSP counts
// 0-based lines and characters in the negotiated encoding.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gradlint::lsp {

enum class PositionEncoding { Utf8, Utf16, Utf32 };

const char *encodingName(PositionEncoding encoding);

nlohmann::json position(unsigned line, unsigned character);

/// Line starts of a text, for turning byte offsets and 1-based line/columns into LSP positions.
class LineIndex {
public:
  explicit LineIndex(const std::string &text);

  /// The text of a 0-based line, without its line break.
  llvm::StringRef line(size_t index) const;

  /// The LSP position of a byte offset (clamped to the text).
  nlohmann::json positionOfOffset(size_t offset, PositionEncoding encoding) const;

  /// The byte offset of a 1-based line and byte column (clamped to the text).
  size_t offsetOf(unsigned line, unsigned column) const;

private:
  const std::string &text_;
  std::vector<size_t> starts_;
};

/// The range of a finding reported at a 1-based byte column of `line`: the
/// identifier starting there, else the one character there.
nlohmann::json rangeAtColumn(unsigned lineNumber, unsigned column, llvm::StringRef line,
                             PositionEncoding encoding);

/// Ranges that overlap or touch (a cursor at either end of a finding selects it).
bool rangesMeet(const nlohmann::json &a, const nlohmann::json &b);

} // namespace gradlint::lsp
