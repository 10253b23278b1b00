#include "driver/fix/FixApplier.h"

#include "driver/analysis/BoundedFile.h"
#include "driver/analysis/CompilationSetup.h"
#include "driver/fix/AtomicWrite.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>

namespace gradlint {

namespace {

struct ChosenEdit {
  TextEdit edit;
  size_t order; ///< insertions at one offset keep the order their fixes were chosen in
};

bool overlaps(const TextEdit &a, const TextEdit &b) {
  if (a.length == 0 && b.length == 0)
    return false; // two insertions at one point: both go in, in order
  if (a.length == 0)
    return a.offset > b.offset && a.offset < b.offset + b.length;
  if (b.length == 0)
    return b.offset > a.offset && b.offset < a.offset + a.length;
  return a.offset < b.offset + b.length && b.offset < a.offset + a.length;
}

std::optional<std::string> readFile(const std::string &path, std::string &error) {
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  if (auto failure = readBoundedFile(path, kMaxSourceBytes, "a source file", buffer,
                                     /*requiresNullTerminator=*/false)) {
    error = failure->describe("cannot read the file to fix: ");
    return std::nullopt;
  }
  return buffer->getBuffer().str();
}

const char *const kChangedSinceAnalysed = "changed since it was analysed; no fix applied";

/// The file `path` names, through symbolic links; `path` made absolute when
/// it does not resolve (the error comes when it is read).
std::string realPathOf(const std::string &path) {
  llvm::SmallString<256> real;
  if (!llvm::sys::fs::real_path(path, real))
    return std::string(real);
  return CompilationSetup::absolutePath(path);
}

std::string yamlString(const std::string &text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    default:
      if (c < 0x20) {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\x%02x", c);
        out += buffer;
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  return out + "\"";
}

/// Byte offset of 1-based (line, column) in `text`.
unsigned offsetOf(const std::string &text, unsigned line, unsigned column) {
  size_t offset = 0;
  for (unsigned l = 1; l < line && offset != std::string::npos; ++l) {
    offset = text.find('\n', offset);
    if (offset != std::string::npos)
      ++offset;
  }
  if (offset == std::string::npos)
    return static_cast<unsigned>(text.size());
  return static_cast<unsigned>(std::min(text.size(), offset + (column ? column - 1 : 0)));
}

/// clang-apply-replacements' YAML: one entry per diagnostic with a chosen fix.
std::optional<std::string> exportFixes(const std::vector<const Diagnostic *> &fixed,
                                       std::map<std::string, std::string> &contents,
                                       const std::string &path) {
  std::ostringstream yaml;
  yaml << "---\nMainSourceFile: \"\"\nDiagnostics:\n";
  for (const Diagnostic *diagnostic : fixed) {
    std::string file = CompilationSetup::absolutePath(diagnostic->location.file);
    auto text = contents.find(diagnostic->location.file);
    unsigned offset = text == contents.end() ? 0
                                             : offsetOf(text->second, diagnostic->location.line,
                                                        diagnostic->location.column);
    yaml << "  - DiagnosticName: " << yamlString(diagnostic->check) << "\n"
         << "    DiagnosticMessage:\n"
         << "      Message: " << yamlString(diagnostic->message) << "\n"
         << "      FilePath: " << yamlString(file) << "\n"
         << "      FileOffset: " << offset << "\n"
         << "      Replacements:\n";
    for (const TextEdit &edit : diagnostic->fix->edits)
      yaml << "        - FilePath: " << yamlString(CompilationSetup::absolutePath(edit.file))
           << "\n"
           << "          Offset: " << edit.offset << "\n"
           << "          Length: " << edit.length << "\n"
           << "          ReplacementText: " << yamlString(edit.replacement) << "\n";
    yaml << "    Level: " << (diagnostic->severity == "error" ? "Error" : "Warning") << "\n";
  }
  yaml << "...\n";
  return writeFileAtomically(path, yaml.str(), "the fixes");
}

std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start + 1));
    start = end + 1;
  }
  return lines;
}

} // namespace

std::string unifiedDiff(const std::string &path, const std::string &before,
                        const std::string &after) {
  if (before == after)
    return "";
  std::vector<std::string> a = splitLines(before), b = splitLines(after);
  // Fix-its are local: trim the common head and tail, diff the middle.
  size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head])
    ++head;
  size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head &&
         a[a.size() - 1 - tail] == b[b.size() - 1 - tail])
    ++tail;
  size_t n = a.size() - head - tail, m = b.size() - head - tail;
  // Edit script of the middle by longest common subsequence; a huge middle
  // is shown as one replacement.
  std::vector<std::pair<char, std::string>> script;
  if (n * m <= 4'000'000) {
    std::vector<std::vector<unsigned>> lcs(n + 1, std::vector<unsigned>(m + 1, 0));
    for (size_t i = n; i-- > 0;)
      for (size_t j = m; j-- > 0;)
        lcs[i][j] = a[head + i] == b[head + j] ? lcs[i + 1][j + 1] + 1
                                               : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[head + i] == b[head + j]) {
        script.emplace_back(' ', a[head + i]);
        ++i, ++j;
      } else if (j < m && (i == n || lcs[i][j + 1] > lcs[i + 1][j])) {
        script.emplace_back('+', b[head + j++]);
      } else {
        script.emplace_back('-', a[head + i++]);
      }
    }
  } else {
    for (size_t i = 0; i < n; ++i)
      script.emplace_back('-', a[head + i]);
    for (size_t j = 0; j < m; ++j)
      script.emplace_back('+', b[head + j]);
  }
  // Whole-file script with the common head and tail as context.
  std::vector<std::pair<char, std::string>> all;
  for (size_t i = 0; i < head; ++i)
    all.emplace_back(' ', a[i]);
  all.insert(all.end(), script.begin(), script.end());
  for (size_t i = a.size() - tail; i < a.size(); ++i)
    all.emplace_back(' ', a[i]);

  std::ostringstream out;
  out << "--- a/" << path << "\n+++ b/" << path << "\n";
  const size_t context = 3;
  size_t k = 0;
  size_t oldLine = 1, newLine = 1;
  while (k < all.size()) {
    if (all[k].first == ' ') {
      ++oldLine, ++newLine, ++k;
      continue;
    }
    // A hunk: from `context` lines before this change to `context` after the
    // last change that lies within 2 * context of the previous one.
    size_t start = k >= context ? k - context : 0;
    size_t end = k;
    size_t quiet = 0;
    for (size_t i = k; i < all.size(); ++i) {
      if (all[i].first != ' ') {
        end = i;
        quiet = 0;
      } else if (++quiet > 2 * context) {
        break;
      }
    }
    size_t stop = std::min(all.size(), end + 1 + context);
    size_t oldStart = oldLine - (k - start), newStart = newLine - (k - start);
    size_t oldCount = 0, newCount = 0;
    std::ostringstream body;
    for (size_t i = start; i < stop; ++i) {
      const std::string &line = all[i].second;
      body << all[i].first << line;
      if (line.empty() || line.back() != '\n')
        body << "\n\\ No newline at end of file\n";
      if (all[i].first != '+')
        ++oldCount;
      if (all[i].first != '-')
        ++newCount;
    }
    out << "@@ -" << (oldCount ? oldStart : oldStart - 1) << ',' << oldCount << " +"
        << (newCount ? newStart : newStart - 1) << ',' << newCount << " @@\n"
        << body.str();
    for (size_t i = k; i < stop; ++i) {
      if (all[i].first != '+')
        ++oldLine;
      if (all[i].first != '-')
        ++newLine;
    }
    k = stop;
  }
  return out.str();
}

FixReport processFixes(RunResult &result, const FixSettings &settings) {
  FixReport report;
  // One file under several names (a symbolic link, "./a.cpp" and "a.cpp") is
  // fixed once: the edits are grouped by the real file, each with its names.
  std::map<std::string, std::vector<ChosenEdit>> editsByFile;
  std::map<std::string, std::vector<std::string>> namesOf;
  std::map<std::string, std::string> realFiles;
  auto realFileOf = [&](const std::string &name) -> const std::string & {
    auto known = realFiles.find(name);
    if (known != realFiles.end())
      return known->second;
    const std::string &real = realFiles[name] = realPathOf(name);
    namesOf[real].push_back(name);
    return real;
  };
  std::map<std::string, std::string> contents;
  std::vector<Diagnostic *> chosen;
  size_t order = 0;
  for (Diagnostic &diagnostic : result.diagnostics) {
    if (!diagnostic.fix || diagnostic.fix->edits.empty())
      continue;
    if (!diagnostic.fix->safe && !settings.includeUnsafe) {
      ++report.skippedUnsafe;
      continue;
    }
    bool clash = false;
    for (const TextEdit &edit : diagnostic.fix->edits) {
      auto chosenHere = editsByFile.find(realFileOf(edit.file));
      if (chosenHere != editsByFile.end())
        for (const ChosenEdit &other : chosenHere->second)
          clash = clash || overlaps(edit, other.edit);
    }
    if (clash) {
      ++report.refusedOverlap;
      continue;
    }
    for (const TextEdit &edit : diagnostic.fix->edits)
      editsByFile[realFileOf(edit.file)].push_back({edit, order++});
    chosen.push_back(&diagnostic);
  }

  // Test seam (test_cases/fixits/fix_safety_tests.py only): a shell command run
  // once after the analysis and before any fixed file is written, so that a
  // test can change a file, or line up two runs, in that window.
  if (!editsByFile.empty())
    if (const char *command = std::getenv("GRADLINT_TEST_BEFORE_FIX_WRITE"))
      if (*command && std::system(command) == -1)
        report.errors.push_back({"GRADLINT_TEST_BEFORE_FIX_WRITE", "cannot run the command"});

  std::map<std::string, bool> fileOk;
  for (auto &[key, edits] : editsByFile) {
    const std::string &file = namesOf[key].front(); // the name errors give
    for (const std::string &name : namesOf[key])
      fileOk[name] = false;
    // --fix reads the file under its lock, held until the fixed text is written.
    LockedFile locked;
    std::string error;
    std::optional<std::string> before;
    if (settings.apply && !settings.dryRun) {
      if (auto failure = locked.open(file))
        error = *failure;
      else
        before = locked.contents();
    } else {
      before = readFile(file, error);
    }
    if (!before) {
      report.errors.push_back({file, error});
      continue;
    }
    // Only the text the analysis read: the edits' offsets refer to it.
    uint64_t hash = llvm::xxh3_64bits(*before);
    bool analysed = true;
    for (const ChosenEdit &chosenEdit : edits)
      analysed = analysed && chosenEdit.edit.contentHash == hash;
    if (!analysed) {
      report.errors.push_back({file, kChangedSinceAnalysed});
      continue;
    }
    for (const std::string &name : namesOf[key])
      contents[name] = *before;
    std::stable_sort(edits.begin(), edits.end(), [](const ChosenEdit &a, const ChosenEdit &b) {
      return a.edit.offset != b.edit.offset ? a.edit.offset < b.edit.offset : a.order < b.order;
    });
    std::string after;
    size_t cursor = 0;
    bool stale = false;
    for (const ChosenEdit &chosenEdit : edits) {
      const TextEdit &edit = chosenEdit.edit;
      if (edit.offset < cursor || edit.offset + edit.length > before->size()) {
        stale = true; // cannot happen with the analysed text; never write a guess
        break;
      }
      after += before->substr(cursor, edit.offset - cursor);
      after += edit.replacement;
      cursor = edit.offset + edit.length;
    }
    if (stale) {
      report.errors.push_back({file, kChangedSinceAnalysed});
      continue;
    }
    after += before->substr(cursor);
    if (settings.dryRun) {
      report.diff += unifiedDiff(file, *before, after);
    } else if (settings.apply && after != *before) {
      if (auto failure = locked.replace(after)) {
        report.errors.push_back({file, *failure});
        continue;
      }
    }
    for (const std::string &name : namesOf[key])
      fileOk[name] = true;
    if (after != *before)
      ++report.filesChanged;
  }
  std::vector<const Diagnostic *> exported;
  for (Diagnostic *diagnostic : chosen) {
    bool ok = true;
    for (const TextEdit &edit : diagnostic->fix->edits)
      ok = ok && fileOk[edit.file];
    if (!ok)
      continue;
    exported.push_back(diagnostic);
    ++report.applied;
    if (settings.apply && !settings.dryRun)
      diagnostic->fixApplied = true;
  }
  if (!settings.exportFile.empty())
    if (auto error = exportFixes(exported, contents, settings.exportFile))
      report.errors.push_back({settings.exportFile, *error});
  return report;
}

} // namespace gradlint
