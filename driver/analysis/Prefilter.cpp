#include "driver/analysis/Prefilter.h"
#include "driver/analysis/BoundedFile.h"
#include "model/UserCode.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>

namespace gradlint {

namespace {

bool isIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$' || static_cast<unsigned char>(c) >= 0x80;
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }
/// Clang skips a NUL inside a file as whitespace (with a warning).
bool isHorizontalSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\0';
}

/// Past the end of a "..." or '...' literal starting at `i`; an unterminated
/// one ends at the line's end, so one stray quote cannot hide the rest.
size_t skipQuoted(llvm::StringRef text, size_t i, char quote) {
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == quote) {
      return i + 1;
    } else if (text[i] == '\n') {
      return i;
    }
  }
  return text.size();
}

/// Past the end of a raw string whose `"` is at `i`. An opening that is not
/// well-formed ends, as Clang salvages it, after the next `"`.
size_t skipRawString(llvm::StringRef text, size_t i) {
  // Delimiter characters: printable ASCII but for parentheses and backslash.
  size_t open = i + 1;
  while (open < text.size() && open - i - 1 < 16 && text[open] > ' ' && text[open] < 0x7f &&
         text[open] != '(' && text[open] != ')' && text[open] != '\\')
    ++open;
  if (open >= text.size() || text[open] != '(') {
    size_t next = text.find('"', i + 1);
    return next == llvm::StringRef::npos ? text.size() : next + 1;
  }
  llvm::StringRef delimiter = text.slice(i + 1, open);
  std::string close = ")" + delimiter.str() + "\"";
  size_t end = text.find(close, open + 1);
  return end == llvm::StringRef::npos ? text.size() : end + close.size();
}

/// Past the end of a pp-number at `i` ("1e+5", "0x1f", "1'000", "2step").
/// Sets `modeDependent` where Clang's modes end the number differently.
size_t skipNumber(llvm::StringRef text, size_t i, bool &modeDependent) {
  size_t start = i;
  bool hex = text.substr(i, 2).equals_insensitive("0x");
  for (++i; i < text.size(); ++i) {
    char c = text[i];
    // A sign after an exponent, where every mode of Clang takes it: after e
    // in a decimal number, after p in a hex float without '_' (C++14 has none),
    // and not after a digit separator's letter (Clang takes "'p" as a pair
    // and then forgets the p: "0x'p+step" ends before the '+').
    char before = text[i - 1];
    bool afterSeparator = i >= 2 && text[i - 2] == '\'';
    if ((c == '+' || c == '-') && !afterSeparator) {
      bool exponent = before == 'e' || before == 'E' || before == 'p' || before == 'P';
      bool everyMode = ((before == 'e' || before == 'E') && !hex) ||
                       ((before == 'p' || before == 'P') && hex &&
                        text.slice(start, i).find('_') == llvm::StringRef::npos);
      if (everyMode)
        continue;
      // Some modes take the sign (e after a hex number outside Microsoft
      // mode, p anywhere in C++17), others end the number here, and what
      // follows can lex differently ("0xe-R\"", a raw string or not).
      if (exponent)
        modeDependent = true;
    }
    // A digit separator, when an ASCII identifier character but '$' follows (as Clang has it).
    if (c == '\'' && i + 1 < text.size() && isIdentifierChar(text[i + 1]) && text[i + 1] != '$' &&
        static_cast<unsigned char>(text[i + 1]) < 0x80)
      continue;
    // A non-ASCII byte ends it here: Clang ends a number at invalid UTF-8,
    // and what follows is then scanned (over-approximating valid UTF-8).
    // Where it is valid UTF-8 of an identifier character, Clang goes on with
    // the number instead (then `'s` is a digit separator, not a literal):
    // which, this scan cannot tell.
    if (static_cast<unsigned char>(c) >= 0x80)
      modeDependent = true;
    if ((!isIdentifierChar(c) && c != '.') || c == '$' || static_cast<unsigned char>(c) >= 0x80)
      return i; // ('$' starts an identifier after a number, as in Clang)
  }
  return text.size();
}

/// Sets the bit of every place `identifier` occurs in `word` as a proper substring.
void notePieces(llvm::StringRef identifier, llvm::StringRef word, uint64_t &pieces) {
  if (identifier.empty() || identifier.size() >= word.size())
    return;
  for (size_t i = 0; i + identifier.size() <= word.size(); ++i)
    if (word.substr(i, identifier.size()) == identifier)
      pieces |= uint64_t(1) << (i * 8 + i + identifier.size() - 1);
}

void noteIdentifier(llvm::StringRef identifier, ScannedFile &out) {
  // Clang may end an identifier at a byte this scan takes for part of one
  // (invalid UTF-8, a character no identifier may hold): the ASCII runs count too.
  auto nonAscii = [](char c) { return static_cast<unsigned char>(c) >= 0x80; };
  for (size_t start = 0; llvm::any_of(identifier, nonAscii) && start < identifier.size();) {
    size_t end = start;
    while (end < identifier.size() && !nonAscii(identifier[end]))
      ++end;
    if (end > start)
      noteIdentifier(identifier.slice(start, end), out);
    start = end + 1;
  }
  if (identifier == "step")
    out.hasStep = true;
  else if (identifier == "backward")
    out.hasBackward = true;
  notePieces(identifier, "step", out.stepPieces);
  notePieces(identifier, "backward", out.backwardPieces);
}

bool isStringPrefix(llvm::StringRef identifier) {
  return llvm::is_contained({"R", "u8R", "uR", "UR", "LR", "u8", "u", "U", "L"}, identifier);
}

/// Reads the directive whose '#' (or `%:`) ends before `j`; records an
/// #include. Returns where tokenizing goes on (the rest of a #define is
/// ordinary tokens).
size_t readDirective(llvm::StringRef text, size_t j, ScannedFile &out) {
  while (j < text.size() && isHorizontalSpace(text[j]))
    ++j;
  size_t nameStart = j;
  while (j < text.size() && isIdentifierChar(text[j]))
    ++j;
  llvm::StringRef name = text.slice(nameStart, j);
  if (!name.empty() && name[0] >= '0' && name[0] <= '9')
    return nameStart; // `#0'z%step`, a line marker: a pp-number; read as tokens
  if (j < text.size() && (text[j] == '"' || text[j] == '\'') && isStringPrefix(name))
    return nameStart; // `#R"(...)"`: a string prefix, not a name; read as tokens
  if (name != "include" && name != "include_next" && name != "import") {
    noteIdentifier(name, out); // `#step` is an (invalid) directive, and a token
    return j;
  }
  while (j < text.size() && isHorizontalSpace(text[j]))
    ++j;
  if (j < text.size() && (text[j] == '"' || text[j] == '<')) {
    char close = text[j] == '"' ? '"' : '>';
    size_t end = text.find_first_of(llvm::StringRef(close == '"' ? "\"\n" : ">\n", 2), j + 1);
    if (end != llvm::StringRef::npos && text[end] == close) {
      out.includes.push_back({text.slice(j + 1, end).str(), close == '>'});
      return end + 1;
    }
  }
  out.computedInclude = true;
  return j;
}

/// A trigraph is "??" then one of these; it stands for the character below it.
constexpr llvm::StringLiteral kTrigraphThirds = "=/'()!<>-";
constexpr llvm::StringLiteral kTrigraphMeanings = "#\\^[]|{}~";

/// A text after translation phases 1 and 2, and where each run of it came
/// from in the original: raw strings are lexed on the original, since the
/// phases are reverted inside them.
struct SplicedText {
  std::string text; ///< empty when `original` needed no change (then use view())
  llvm::StringRef original;
  /// (offset in text, offset in original) where each unchanged run starts.
  std::vector<std::pair<size_t, size_t>> runs;

  bool unchanged = false;
  llvm::StringRef view() const { return unchanged ? original : llvm::StringRef(text); }

  size_t toOriginal(size_t offset) const {
    auto run = std::upper_bound(runs.begin(), runs.end(), std::make_pair(offset, SIZE_MAX)) - 1;
    return run->second + (offset - run->first);
  }
  /// The spliced offset of an original one; inside removed text, the next kept character.
  size_t toSpliced(size_t offset) const {
    auto next = std::upper_bound(runs.begin(), runs.end(), offset,
                                 [](size_t o, const auto &run) { return o < run.second; });
    auto run = next - 1;
    size_t spliced = run->first + (offset - run->second);
    return next == runs.end() ? std::min(spliced, view().size()) : std::min(spliced, next->first);
  }
};

/// Clang allows these between a backslash and the line end of a splice.
bool isSpliceSpace(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }

/// `text` after translation phases 1 and 2: every line ending a '\n', every
/// splice (a backslash, optional horizontal space, a line ending) removed;
/// with `trigraphs`, the nine trigraphs replaced first.
SplicedText afterLineSplicing(llvm::StringRef text, bool trigraphs) {
  SplicedText out{"", text, {{0, 0}}};
  out.text.reserve(text.size());
  size_t n = text.size();
  auto lineEndAt = [&](size_t i) -> size_t { // its length; 0 when none
    if (i >= n || (text[i] != '\r' && text[i] != '\n'))
      return 0;
    // "\r\n", and "\n\r" as Clang reads it, are one line ending.
    return i + 1 < n && (text[i + 1] == '\r' || text[i + 1] == '\n') && text[i + 1] != text[i] ? 2
                                                                                               : 1;
  };
  for (size_t i = 0; i < n;) {
    char c = text[i];
    size_t length = 1;
    if (trigraphs && c == '?' && text.substr(i, 2) == "??" && i + 2 < n)
      if (size_t which = kTrigraphThirds.find(text[i + 2]); which != llvm::StringRef::npos) {
        c = kTrigraphMeanings[which];
        length = 3;
      }
    size_t consumed = length;
    if (c == '\\') {
      size_t j = i + length;
      while (j < n && isSpliceSpace(text[j]))
        ++j;
      if (size_t ending = lineEndAt(j)) {
        i = j + ending;
        out.runs.push_back({out.text.size(), i});
        continue;
      }
    }
    if (size_t ending = lineEndAt(i)) {
      out.text += '\n';
      consumed = ending;
    } else {
      out.text += c;
    }
    i += consumed;
    if (consumed != 1)
      out.runs.push_back({out.text.size(), i});
  }
  return out;
}

/// scanSource on text that has been through translation phases 1 and 2.
ScannedFile scanSpliced(const SplicedText &spliced) {
  llvm::StringRef text = spliced.view();
  ScannedFile out;
  size_t i = 0, n = text.size();
  bool lineStart = true;
  while (i < n && !(out.hasStep && out.hasBackward)) { // both found: the answer is known
    char c = text[i];
    char next = i + 1 < n ? text[i + 1] : '\0';
    if (c == '\n') {
      lineStart = true;
      ++i;
    } else if (isHorizontalSpace(c)) {
      ++i;
    } else if (c == '/' && next == '/') {
      size_t end = text.find('\n', i + 2);
      i = end == llvm::StringRef::npos ? n : end;
    } else if (c == '/' && next == '*') {
      size_t end = text.find("*/", i + 2);
      i = end == llvm::StringRef::npos ? n : end + 2;
    } else {
      bool atLineStart = lineStart;
      lineStart = false;
      if (c == '#' && atLineStart) {
        i = readDirective(text, i + 1, out);
      } else if (c == '%' && next == ':' && atLineStart) { // the digraph of '#'
        i = readDirective(text, i + 2, out);
      } else if (c == '"' || c == '\'') {
        i = skipQuoted(text, i, c);
      } else if (isDigit(c) || (c == '.' && isDigit(next))) {
        bool modeDependent = false;
        i = skipNumber(text, i, modeDependent);
        out.unclear = out.unclear || modeDependent;
      } else if (isIdentifierChar(c)) {
        size_t start = i;
        while (i < n && isIdentifierChar(text[i]))
          ++i;
        llvm::StringRef identifier = text.slice(start, i);
        bool literalFollows = i < n && (text[i] == '"' || text[i] == '\'');
        // "éR"(..." is an identifier and a string to Clang if é may be in an
        // identifier, else a raw string: which, this scan cannot tell.
        size_t lastNonAscii = identifier.size();
        while (lastNonAscii > 0 && static_cast<unsigned char>(identifier[lastNonAscii - 1]) < 0x80)
          --lastNonAscii;
        if (literalFollows && lastNonAscii-- > 0 &&
            isStringPrefix(identifier.drop_front(lastNonAscii + 1)))
          out.unclear = true;
        if (literalFollows && identifier.ends_with("R") &&
            (identifier == "R" || identifier == "u8R" || identifier == "uR" || identifier == "UR" ||
             identifier == "LR") &&
            text[i] == '"') {
          // Lexed on the original text: splices and trigraphs are reverted in raw strings.
          size_t end = skipRawString(spliced.original, spliced.toOriginal(i));
          i = std::max(i + 1, spliced.toSpliced(end));
        } else if (literalFollows && (identifier == "u8" || identifier == "u" ||
                                      identifier == "U" || identifier == "L")) {
          i = skipQuoted(text, i, text[i]);
        } else {
          noteIdentifier(identifier, out);
        }
      } else {
        ++i;
      }
    }
  }
  return out;
}

/// The include directories and forced includes of a command line.
struct SearchPath {
  std::vector<std::string> quoteDirs;      ///< -iquote
  std::vector<std::string> userDirs;       ///< -I
  std::vector<std::string> forcedIncludes; ///< -include, -imacros
  std::string macroText;                   ///< -D values: they can spell step or backward too
};

SearchPath searchPathOf(const std::vector<std::string> &args, const std::string &directory) {
  SearchPath path;
  auto absolute = [&](const std::string &dir) {
    if (llvm::sys::path::is_absolute(dir))
      return dir;
    llvm::SmallString<256> joined(directory);
    llvm::sys::path::append(joined, dir);
    return std::string(joined);
  };
  auto valueOf = [&](size_t &i, llvm::StringRef flag, std::string &value) {
    llvm::StringRef arg = args[i];
    if (arg == flag) {
      if (i + 1 >= args.size())
        return false;
      value = args[++i];
      return true;
    }
    if (!arg.starts_with(flag))
      return false;
    value = arg.drop_front(flag.size()).str();
    if (!value.empty() && value[0] == '=')
      value.erase(0, 1);
    return true;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    std::string value;
    llvm::StringRef arg = args[i];
    if (arg == "-include" || arg == "-imacros") {
      if (valueOf(i, arg, value))
        path.forcedIncludes.push_back(absolute(value));
    } else if (valueOf(i, "-iquote", value)) {
      path.quoteDirs.push_back(absolute(value));
    } else if (valueOf(i, "--include-directory", value) || valueOf(i, "-I", value)) {
      path.userDirs.push_back(absolute(value));
    } else if (valueOf(i, "-D", value) || valueOf(i, "--define-macro", value)) {
      path.macroText += value + "\n";
    }
  }
  return path;
}

} // namespace

ScannedFile scanSource(llvm::StringRef text) {
  bool mayHaveTrigraphs = text.contains("??");
  if (!mayHaveTrigraphs && text.find_first_of("\\\r") == llvm::StringRef::npos)
    return scanSpliced({"", text, {{0, 0}}, true}); // nothing for phases 1 and 2 to change
  ScannedFile out = scanSpliced(afterLineSplicing(text, /*trigraphs=*/false));
  if (mayHaveTrigraphs) {
    // Trigraphs are on in some language modes (-std=c++14, -trigraphs) and
    // off in others: what either reading finds counts.
    ScannedFile other = scanSpliced(afterLineSplicing(text, /*trigraphs=*/true));
    out.hasStep = out.hasStep || other.hasStep;
    out.hasBackward = out.hasBackward || other.hasBackward;
    out.computedInclude = out.computedInclude || other.computedInclude;
    out.unclear = out.unclear || other.unclear;
    out.stepPieces |= other.stepPieces;
    out.backwardPieces |= other.backwardPieces;
    out.includes.insert(out.includes.end(), other.includes.begin(), other.includes.end());
  }
  return out;
}

bool pastable(llvm::StringRef word, uint64_t pieces) {
  // reachable[j]: word[0, j) is a concatenation of pieces.
  std::vector<bool> reachable(word.size() + 1, false);
  reachable[0] = true;
  for (size_t j = 1; j <= word.size(); ++j)
    for (size_t i = 0; i < j && !reachable[j]; ++i)
      reachable[j] = reachable[i] && (pieces >> (i * 8 + j - 1) & 1);
  return reachable[word.size()];
}

const ScannedFile *Prefilter::scanHeader(const std::string &path) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = headers_.find(path);
    if (found != headers_.end())
      return found->second.get();
  }
  std::unique_ptr<ScannedFile> scanned;
  // A header that is no regular file, or a huge one, counts as "may": the
  // isolated analysis (under its time and memory limits) deals with it.
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  // Nor is text that is not UTF-8: Clang ends identifiers at invalid bytes.
  if (!readBoundedFile(path, kMaxSourceBytes, "a header", buffer,
                       /*requiresNullTerminator=*/false) &&
      llvm::json::isUTF8(buffer->getBuffer()))
    scanned = std::make_unique<ScannedFile>(scanSource(buffer->getBuffer()));
  std::lock_guard<std::mutex> lock(mutex_);
  auto &slot = headers_[path];
  if (!slot && scanned)
    slot = std::move(scanned);
  return slot.get();
}

bool Prefilter::mayContainTrainingLoop(const std::string &mainFile, llvm::StringRef contents,
                                       const std::vector<std::string> &args,
                                       const std::string &directory) {
  SearchPath search = searchPathOf(args, directory);
  ScannedFile macros = scanSource(search.macroText);
  bool hasStep = macros.hasStep, hasBackward = macros.hasBackward;
  // A `##` in any macro, a library's too, joins pieces spelled in these files.
  uint64_t stepPieces = macros.stepPieces, backwardPieces = macros.backwardPieces;

  // Files still to scan: (path, scan); the main file's scan is not cached.
  ScannedFile mainScan = scanSource(contents);
  std::vector<std::pair<std::string, const ScannedFile *>> pending = {{mainFile, &mainScan}};
  std::set<std::string> seen = {mainFile};
  for (const std::string &forced : search.forcedIncludes)
    if (seen.insert(forced).second) {
      const ScannedFile *scan = scanHeader(forced);
      if (!scan)
        return true;
      pending.push_back({forced, scan});
    }

  auto resolve = [&](const std::string &includer, const ScannedFile::Include &include) {
    std::vector<const std::vector<std::string> *> lists;
    std::vector<std::string> includerDir;
    if (!include.angled) {
      includerDir.push_back(std::string(llvm::sys::path::parent_path(includer)));
      lists = {&includerDir, &search.quoteDirs, &search.userDirs};
    } else {
      lists = {&search.userDirs};
    }
    if (llvm::sys::path::is_absolute(include.name))
      return llvm::sys::fs::exists(include.name) ? include.name : std::string();
    for (const std::vector<std::string> *dirs : lists)
      for (const std::string &dir : *dirs) {
        llvm::SmallString<256> candidate(dir);
        llvm::sys::path::append(candidate, include.name);
        if (llvm::sys::fs::exists(candidate) && !llvm::sys::fs::is_directory(candidate))
          return std::string(candidate);
      }
    return std::string(); // a system header, or missing (the parse reports that)
  };

  for (size_t index = 0; index < pending.size(); ++index) {
    const ScannedFile &scan = *pending[index].second;
    stepPieces |= scan.stepPieces;
    backwardPieces |= scan.backwardPieces;
    hasStep = hasStep || scan.hasStep || pastable("step", stepPieces);
    hasBackward = hasBackward || scan.hasBackward || pastable("backward", backwardPieces);
    if (scan.computedInclude || scan.unclear || (hasStep && hasBackward))
      return true;
    std::string includer = pending[index].first;
    for (const ScannedFile::Include &include : scan.includes) {
      std::string path = resolve(includer, include);
      if (path.empty() || isLibraryPath(path))
        continue;
      llvm::SmallString<256> normal(path);
      llvm::sys::path::remove_dots(normal, true);
      if (!seen.insert(std::string(normal)).second)
        continue;
      if (seen.size() > kMaxHeaders)
        return true; // too many project headers to be sure cheaply
      const ScannedFile *headerScan = scanHeader(std::string(normal));
      if (!headerScan)
        return true;
      pending.push_back({std::string(normal), headerScan});
    }
  }
  return false;
}

} // namespace gradlint
