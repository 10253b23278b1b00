#include "driver/lsp/Positions.h"

#include <algorithm>
#include <cctype>

namespace gradlint::lsp {

using json = nlohmann::json;

namespace {

/// Bytes of the UTF-8 sequence starting with `lead` (1 for a stray byte).
size_t sequenceLength(unsigned char lead) {
  if (lead >= 0xF0 && lead <= 0xF4)
    return 4;
  if (lead >= 0xE0)
    return lead <= 0xEF ? 3 : 1;
  if (lead >= 0xC2)
    return 2;
  return 1;
}

/// Characters, in `encoding`, of the first `bytes` bytes of `line`. Invalid
/// UTF-8 counts one unit per byte, so a broken file still gets positions.
unsigned charactersBefore(llvm::StringRef line, size_t bytes, PositionEncoding encoding) {
  bytes = std::min(bytes, line.size());
  if (encoding == PositionEncoding::Utf8)
    return static_cast<unsigned>(bytes);
  unsigned units = 0;
  for (size_t i = 0; i < bytes;) {
    size_t length = sequenceLength(static_cast<unsigned char>(line[i]));
    bool valid = i + length <= line.size();
    for (size_t k = 1; valid && k < length; ++k)
      valid = (static_cast<unsigned char>(line[i + k]) & 0xC0) == 0x80;
    if (!valid)
      length = 1;
    units += (length == 4 && encoding == PositionEncoding::Utf16) ? 2 : 1;
    i += length;
  }
  return units;
}

bool isIdentifierByte(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Orders LSP positions; true when a precedes or equals b.
bool positionNotAfter(const json &a, const json &b) {
  unsigned aLine = a.at("line"), bLine = b.at("line");
  if (aLine != bLine)
    return aLine < bLine;
  return a.at("character").get<unsigned>() <= b.at("character").get<unsigned>();
}

} // namespace

const char *encodingName(PositionEncoding encoding) {
  switch (encoding) {
  case PositionEncoding::Utf8: return "utf-8";
  case PositionEncoding::Utf16: return "utf-16";
  case PositionEncoding::Utf32: return "utf-32";
  }
  return "utf-16";
}

json position(unsigned line, unsigned character) {
  return {{"line", line}, {"character", character}};
}

LineIndex::LineIndex(const std::string &text) : text_(text) {
  starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n')
      starts_.push_back(i + 1);
}

llvm::StringRef LineIndex::line(size_t index) const {
  if (index >= starts_.size())
    return {};
  size_t end = index + 1 < starts_.size() ? starts_[index + 1] - 1 : text_.size();
  llvm::StringRef text = llvm::StringRef(text_).slice(starts_[index], end);
  return text.ends_with("\r") ? text.drop_back() : text;
}

json LineIndex::positionOfOffset(size_t offset, PositionEncoding encoding) const {
  offset = std::min(offset, text_.size());
  size_t index = std::upper_bound(starts_.begin(), starts_.end(), offset) - starts_.begin() - 1;
  return position(static_cast<unsigned>(index),
                  charactersBefore(line(index), offset - starts_[index], encoding));
}

size_t LineIndex::offsetOf(unsigned line, unsigned column) const {
  if (line == 0)
    return 0;
  if (line > starts_.size())
    return text_.size();
  return std::min(text_.size(), starts_[line - 1] + (column > 0 ? column - 1 : 0));
}

json rangeAtColumn(unsigned lineNumber, unsigned column, llvm::StringRef line,
                   PositionEncoding encoding) {
  unsigned lspLine = lineNumber > 0 ? lineNumber - 1 : 0;
  size_t start = std::min<size_t>(column > 0 ? column - 1 : 0, line.size());
  size_t end = start;
  while (end < line.size() && isIdentifierByte(line[end]))
    ++end;
  if (end == start && start < line.size())
    end = start +
          std::min(sequenceLength(static_cast<unsigned char>(line[start])), line.size() - start);
  return {{"start", position(lspLine, charactersBefore(line, start, encoding))},
          {"end", position(lspLine, charactersBefore(line, end, encoding))}};
}

bool rangesMeet(const json &a, const json &b) {
  return positionNotAfter(a.at("start"), b.at("end")) &&
         positionNotAfter(b.at("start"), a.at("end"));
}

} // namespace gradlint::lsp
