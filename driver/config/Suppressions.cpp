#include "driver/config/Suppressions.h"
#include "driver/analysis/BoundedFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cctype>

namespace gradlint {

namespace {

enum class DirectiveKind { SameLine, NextLine, Begin, End };

const char *spelling(DirectiveKind kind) {
  switch (kind) {
  case DirectiveKind::SameLine: return "NOLINT";
  case DirectiveKind::NextLine: return "NOLINTNEXTLINE";
  case DirectiveKind::Begin: return "NOLINTBEGIN";
  case DirectiveKind::End: return "NOLINTEND";
  }
  return "NOLINT";
}

/// One entry of a directive's check list; a leading '-' excludes, as in clang-tidy.
struct CheckPattern {
  std::string glob;
  bool excludes = false;
  bool silencedSomething = false;
};

struct Directive {
  DirectiveKind kind = DirectiveKind::SameLine;
  size_t offset = 0; ///< of the NOLINT token
  unsigned line = 0;
  unsigned commentColumn = 0; ///< where its comment starts, for the unused finding
  bool hasCheckList = false;  ///< no list: every check
  std::string checkListText;
  std::vector<CheckPattern> patterns;
};

/// A matched NOLINTBEGIN ... NOLINTEND pair.
struct SuppressionBlock {
  size_t begin = 0, end = 0; ///< offsets of the two tokens
  size_t directive = 0;      ///< the NOLINTBEGIN
};

std::string trim(const std::string &text) {
  size_t first = 0, last = text.size();
  while (first < last && std::isspace(static_cast<unsigned char>(text[first])))
    ++first;
  while (last > first && std::isspace(static_cast<unsigned char>(text[last - 1])))
    --last;
  return text.substr(first, last - first);
}

std::vector<CheckPattern> parseCheckList(const std::string &text) {
  std::vector<CheckPattern> patterns;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string entry =
        trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    start = comma == std::string::npos ? text.size() + 1 : comma + 1;
    if (entry.empty())
      continue;
    CheckPattern pattern;
    pattern.excludes = entry[0] == '-';
    pattern.glob = trim(pattern.excludes ? entry.substr(1) : entry);
    patterns.push_back(pattern);
  }
  return patterns;
}

bool sameCheckList(const Directive &a, const Directive &b) {
  if (a.hasCheckList != b.hasCheckList || a.patterns.size() != b.patterns.size())
    return false;
  for (size_t i = 0; i < a.patterns.size(); ++i)
    if (a.patterns[i].glob != b.patterns[i].glob ||
        a.patterns[i].excludes != b.patterns[i].excludes)
      return false;
  return true;
}

} // namespace

bool matchesCheckGlob(const std::string &glob, const std::string &checkId) {
  // Iterative wildcard match with backtracking to the last '*'.
  size_t g = 0, c = 0, star = std::string::npos, resume = 0;
  while (c < checkId.size()) {
    if (g < glob.size() && glob[g] == '*') {
      star = g++;
      resume = c;
    } else if (g < glob.size() && glob[g] == checkId[c]) {
      ++g;
      ++c;
    } else if (star != std::string::npos) {
      g = star + 1;
      c = ++resume;
    } else {
      return false;
    }
  }
  while (g < glob.size() && glob[g] == '*')
    ++g;
  return g == glob.size();
}

struct SuppressionFile {
  bool readable = false;
  bool isInput = false;
  std::string displayName;
  std::string text;
  std::vector<size_t> lineStarts;
  std::vector<Directive> directives;
  std::vector<SuppressionBlock> blocks;
  std::vector<size_t> unmatched; ///< directives: BEGIN without END or END without BEGIN

  unsigned lineOf(size_t offset) const {
    return static_cast<unsigned>(std::upper_bound(lineStarts.begin(), lineStarts.end(), offset) -
                                 lineStarts.begin());
  }

  std::string lineText(unsigned line) const {
    if (line == 0 || line > lineStarts.size())
      return {};
    size_t start = lineStarts[line - 1];
    size_t end = text.find('\n', start);
    std::string result =
        text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!result.empty() && result.back() == '\r')
      result.pop_back();
    return result;
  }

  /// Byte offset of a 1-based line and column; npos when outside the file.
  size_t offsetOf(unsigned line, unsigned column) const {
    if (line == 0 || line > lineStarts.size())
      return std::string::npos;
    return lineStarts[line - 1] + (column > 0 ? column - 1 : 0);
  }

  void parse() {
    lineStarts.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n')
        lineStarts.push_back(i + 1);

    // Like clang-tidy, any "NOLINT..." token counts, wherever it is on the line.
    static const std::string token = "NOLINT";
    for (size_t at = text.find(token); at != std::string::npos; at = text.find(token, at)) {
      Directive directive;
      directive.offset = at;
      size_t suffixStart = at + token.size(), pos = suffixStart;
      while (pos < text.size() && std::isalpha(static_cast<unsigned char>(text[pos])))
        ++pos;
      std::string suffix = text.substr(suffixStart, pos - suffixStart);
      at = pos;
      if (suffix.empty())
        directive.kind = DirectiveKind::SameLine;
      else if (suffix == "NEXTLINE")
        directive.kind = DirectiveKind::NextLine;
      else if (suffix == "BEGIN")
        directive.kind = DirectiveKind::Begin;
      else if (suffix == "END")
        directive.kind = DirectiveKind::End;
      else
        continue; // NOLINTFOO is no directive
      // A check list needs its ')' on the same line; without it the directive covers every check.
      if (pos < text.size() && text[pos] == '(') {
        size_t close = text.find_first_of("\n)", pos + 1);
        if (close != std::string::npos && text[close] == ')') {
          directive.hasCheckList = true;
          directive.checkListText = text.substr(pos + 1, close - pos - 1);
          directive.patterns = parseCheckList(directive.checkListText);
          at = close + 1;
        }
      }
      directive.line = lineOf(directive.offset);
      size_t lineStart = lineStarts[directive.line - 1];
      std::string before = text.substr(lineStart, directive.offset - lineStart);
      size_t lineComment = before.rfind("//"), blockComment = before.rfind("/*");
      size_t comment = lineComment == std::string::npos    ? blockComment
                       : blockComment == std::string::npos ? lineComment
                                                           : std::max(lineComment, blockComment);
      directive.commentColumn = static_cast<unsigned>(
          (comment == std::string::npos ? directive.offset - lineStart : comment) + 1);
      directives.push_back(std::move(directive));
    }

    // Blocks nest: an END closes the innermost open BEGIN with the same check list.
    std::vector<size_t> open;
    for (size_t i = 0; i < directives.size(); ++i) {
      if (directives[i].kind == DirectiveKind::Begin) {
        open.push_back(i);
      } else if (directives[i].kind == DirectiveKind::End) {
        if (!open.empty() && sameCheckList(directives[open.back()], directives[i])) {
          blocks.push_back({directives[open.back()].offset, directives[i].offset, open.back()});
          open.pop_back();
        } else {
          unmatched.push_back(i);
        }
      }
    }
    unmatched.insert(unmatched.end(), open.begin(), open.end());
    std::sort(unmatched.begin(), unmatched.end());
  }

  /// Whether the directive covers `check`; marks the pattern that decided it.
  static bool covers(Directive &directive, const std::string &check) {
    if (!directive.hasCheckList)
      return true;
    // The last matching pattern decides, as in clang-tidy's glob lists.
    for (size_t i = directive.patterns.size(); i-- > 0;) {
      CheckPattern &pattern = directive.patterns[i];
      if (!matchesCheckGlob(pattern.glob, check))
        continue;
      if (pattern.excludes)
        return false;
      pattern.silencedSomething = true;
      return true;
    }
    return false;
  }
};

SuppressionIndex::SuppressionIndex(std::vector<std::string> registeredChecks,
                                   std::vector<std::string> enabledChecks)
    : registeredChecks_(std::move(registeredChecks)), enabledChecks_(std::move(enabledChecks)) {}

SuppressionIndex::~SuppressionIndex() = default;

SuppressionFile &SuppressionIndex::load(const std::string &givenPath,
                                        const std::string &displayName, std::string *contents) {
  // One entry per file, however it was named (a diagnostic's real path or the command line).
  llvm::SmallString<256> real;
  std::string path = llvm::sys::fs::real_path(givenPath, real) ? givenPath : std::string(real);
  auto found = files_.find(path);
  if (found != files_.end())
    return *found->second;
  auto file = std::make_unique<SuppressionFile>();
  file->displayName = displayName;
  if (contents) {
    file->readable = true;
    file->text = std::move(*contents);
    file->parse();
  } else if (std::unique_ptr<llvm::MemoryBuffer> buffer;
             !readBoundedFile(path, kMaxSourceBytes, "a source file", buffer)) {
    file->readable = true;
    file->text = buffer->getBuffer().str();
    file->parse();
  }
  order_.push_back(path);
  return *(files_[path] = std::move(file));
}

bool SuppressionIndex::suppresses(const Diagnostic &diagnostic, const std::string &path) {
  SuppressionFile &file = load(path, diagnostic.location.file);
  if (!file.readable)
    return false;
  const unsigned line = diagnostic.location.line;
  const size_t offset = file.offsetOf(line, diagnostic.location.column);
  bool suppressed = false;
  // Every covering directive is consulted (not just the first), so that each
  // one that applies counts as used.
  for (Directive &directive : file.directives) {
    bool applies = (directive.kind == DirectiveKind::SameLine && directive.line == line) ||
                   (directive.kind == DirectiveKind::NextLine && directive.line + 1 == line);
    if (applies && SuppressionFile::covers(directive, diagnostic.check))
      suppressed = true;
  }
  for (const SuppressionBlock &block : file.blocks)
    if (offset != std::string::npos && block.begin <= offset && offset <= block.end &&
        SuppressionFile::covers(file.directives[block.directive], diagnostic.check))
      suppressed = true;
  return suppressed;
}

void SuppressionIndex::setFileContents(const std::string &path, const std::string &displayName,
                                       std::string text) {
  load(path, displayName, &text);
}

void SuppressionIndex::addInputFile(const std::string &path, const std::string &displayName) {
  load(path, displayName).isInput = true;
}

std::vector<FileError> SuppressionIndex::directiveErrors() const {
  std::vector<FileError> errors;
  for (const std::string &path : order_) {
    const SuppressionFile &file = *files_.at(path);
    for (size_t index : file.unmatched) {
      const Directive &directive = file.directives[index];
      // As in parse errors: the file's name, line and column lead the message.
      std::string where = llvm::sys::path::filename(file.displayName).str() + ":" +
                          std::to_string(directive.line) + ":" +
                          std::to_string(directive.commentColumn) + ": ";
      errors.push_back(
          {file.displayName,
           where + (directive.kind == DirectiveKind::Begin
                        ? "unmatched 'NOLINTBEGIN' comment without a subsequent 'NOLINTEND' "
                          "comment with the same check list"
                        : "unmatched 'NOLINTEND' comment without a previous 'NOLINTBEGIN' "
                          "comment with the same check list")});
    }
  }
  return errors;
}

std::vector<Diagnostic> SuppressionIndex::unusedSuppressions() const {
  auto matchesAny = [](const std::string &glob, const std::vector<std::string> &ids) {
    return std::any_of(ids.begin(), ids.end(),
                       [&](const std::string &id) { return matchesCheckGlob(glob, id); });
  };
  std::vector<Diagnostic> findings;
  for (const std::string &path : order_) {
    const SuppressionFile &file = *files_.at(path);
    if (!file.isInput || !file.readable)
      continue;
    std::vector<bool> unmatched(file.directives.size(), false);
    for (size_t index : file.unmatched)
      unmatched[index] = true;
    for (size_t i = 0; i < file.directives.size(); ++i) {
      const Directive &directive = file.directives[i];
      // A bare NOLINT may be for clang-tidy; an END is judged with its BEGIN;
      // an unmatched BEGIN is already an error.
      if (!directive.hasCheckList || directive.kind == DirectiveKind::End || unmatched[i])
        continue;
      std::vector<std::string> unused, unknown;
      for (const CheckPattern &pattern : directive.patterns) {
        if (pattern.excludes || pattern.silencedSomething)
          continue;
        bool onlyStars = pattern.glob.find_first_not_of('*') == std::string::npos;
        if (onlyStars)
          continue; // "*" is everyone's, not specifically gradlint's
        if (matchesAny(pattern.glob, enabledChecks_))
          unused.push_back(pattern.glob);
        else if (pattern.glob.rfind("accum-", 0) == 0 &&
                 !matchesAny(pattern.glob, registeredChecks_))
          unknown.push_back(pattern.glob);
      }
      if (unused.empty() && unknown.empty())
        continue;
      auto quoted = [](const std::vector<std::string> &names) {
        std::string text;
        for (const std::string &name : names)
          text += (text.empty() ? "'" : ", '") + name + "'";
        return text;
      };
      std::string message = std::string("unused suppression: ") + spelling(directive.kind) + "(" +
                            trim(directive.checkListText) + ")";
      if (!unused.empty())
        message += " suppresses no finding of " + quoted(unused) +
                   "; remove the check name, or the comment";
      if (!unknown.empty())
        message += std::string(unused.empty() ? "" : ";") + " names " + quoted(unknown) +
                   ", which " + (unknown.size() == 1 ? "is" : "are") +
                   " no gradlint check (see --list-checks)";
      Diagnostic finding;
      finding.check = kUnusedSuppressionCheck;
      finding.severity = "warning";
      finding.location.file = file.displayName;
      finding.location.line = directive.line;
      finding.location.column = directive.commentColumn;
      finding.location.sourceLine = file.lineText(directive.line);
      finding.message = message;
      findings.push_back(std::move(finding));
    }
  }
  return findings;
}

} // namespace gradlint
