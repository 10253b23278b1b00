#include "driver/cli/DiffFilter.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <sstream>

namespace gradlint {

namespace {

std::string canonical(const std::string &path, const std::string &root) {
  llvm::SmallString<256> absolute(path);
  if (!llvm::sys::path::is_absolute(absolute) && !root.empty()) {
    absolute = root;
    llvm::sys::path::append(absolute, path);
  }
  llvm::sys::fs::make_absolute(absolute);
  llvm::SmallString<256> real;
  if (!llvm::sys::fs::real_path(absolute, real))
    return std::string(real);
  llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
  return std::string(absolute);
}

/// Runs a command and returns its stdout, or nothing when it fails.
std::optional<std::string> capture(llvm::ArrayRef<llvm::StringRef> argv, std::string &error) {
  auto program = llvm::sys::findProgramByName(argv[0]);
  if (!program) {
    error = std::string(argv[0]) + " not found";
    return std::nullopt;
  }
  llvm::SmallString<128> outPath, errPath;
  llvm::sys::fs::createTemporaryFile("gradlint-diff", "out", outPath);
  llvm::sys::fs::createTemporaryFile("gradlint-diff", "err", errPath);
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(outPath),
                                                llvm::StringRef(errPath)};
  int status = llvm::sys::ExecuteAndWait(*program, argv, std::nullopt, redirects);
  auto out = llvm::MemoryBuffer::getFile(outPath);
  auto err = llvm::MemoryBuffer::getFile(errPath);
  llvm::sys::fs::remove(outPath);
  llvm::sys::fs::remove(errPath);
  if (status != 0 || !out) {
    std::string message = err ? (*err)->getBuffer().trim().str() : "";
    error = message.substr(0, message.find('\n'));
    if (error.empty())
      error = "exit status " + std::to_string(status);
    return std::nullopt;
  }
  return (*out)->getBuffer().str();
}

bool isCppSource(llvm::StringRef path) {
  llvm::StringRef ext = llvm::sys::path::extension(path);
  return ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".C" || ext == ".c++";
}

} // namespace

ChangedLines ChangedLines::parse(const std::string &diff, const std::string &root) {
  ChangedLines changed;
  std::istringstream in(diff);
  std::string line, file;
  unsigned newLine = 0;
  bool inHunk = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    llvm::StringRef text(line);
    if (text.starts_with("+++ ")) {
      llvm::StringRef path = text.drop_front(4).split('\t').first;
      inHunk = false;
      if (path == "/dev/null") {
        file.clear();
        continue;
      }
      if (path.starts_with("b/"))
        path = path.drop_front(2);
      file = canonical(path.str(), root);
      if (!changed.lines_.count(file))
        changed.order_.push_back(file);
      changed.lines_[file];
      continue;
    }
    if (text.starts_with("--- ") && !inHunk)
      continue;
    if (text.starts_with("@@")) {
      // @@ -a[,b] +c[,d] @@
      size_t plus = line.find(" +");
      inHunk = plus != std::string::npos && !file.empty();
      if (inHunk)
        newLine = static_cast<unsigned>(std::strtoul(line.c_str() + plus + 2, nullptr, 10));
      continue;
    }
    if (!inHunk)
      continue;
    if (text.starts_with("+")) {
      changed.lines_[file].insert(newLine++);
    } else if (text.starts_with(" ") || text.empty()) {
      ++newLine;
    } else if (text.starts_with("\\")) {
      // "\ No newline at end of file"
    } else if (!text.starts_with("-")) {
      inHunk = false; // the next file's header
    }
  }
  return changed;
}

bool ChangedLines::contains(const std::string &file, unsigned line) const {
  auto found = lines_.find(canonical(file, ""));
  return found != lines_.end() && found->second.count(line);
}

std::vector<std::string> ChangedLines::changedSources() const {
  std::vector<std::string> sources;
  for (const std::string &file : order_)
    if (isCppSource(file) && !lines_.at(file).empty() && llvm::sys::fs::exists(file))
      sources.push_back(file);
  return sources;
}

std::optional<std::string> loadChangedLines(const std::string &range, const std::string &patchFile,
                                            ChangedLines &out) {
  std::string error;
  if (!range.empty()) {
    std::optional<std::string> root = capture({"git", "rev-parse", "--show-toplevel"}, error);
    if (!root)
      return "--diff=" + range + ": not in a git work tree (" + error + ")";
    std::optional<std::string> diff =
        capture({"git", "diff", "--no-color", "--no-ext-diff", "-U0", range, "--"}, error);
    if (!diff)
      return "--diff=" + range + ": git diff failed: " + error;
    out = ChangedLines::parse(*diff, llvm::StringRef(*root).trim().str());
    return std::nullopt;
  }
  std::string text;
  if (patchFile == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    auto buffer = llvm::MemoryBuffer::getFile(patchFile);
    if (!buffer)
      return "--diff-file=" + patchFile + ": cannot read: " + buffer.getError().message();
    text = (*buffer)->getBuffer().str();
  }
  // Patch paths are relative to the work tree's root when there is one.
  std::optional<std::string> root = capture({"git", "rev-parse", "--show-toplevel"}, error);
  out = ChangedLines::parse(text, root ? llvm::StringRef(*root).trim().str() : "");
  return std::nullopt;
}

void keepChangedLines(std::vector<Diagnostic> &diagnostics, const ChangedLines &changed) {
  diagnostics.erase(std::remove_if(diagnostics.begin(), diagnostics.end(),
                                   [&](const Diagnostic &d) {
                                     return !changed.contains(d.location.file, d.location.line);
                                   }),
                    diagnostics.end());
}

} // namespace gradlint
