#include "driver/cache/PreambleCache.h"

#include "driver/analysis/ApiModelFileSystem.h"
#include "driver/analysis/CompilationSetup.h"
#include "driver/analysis/LookupRecordingFileSystem.h"
#include "driver/cache/StatSignature.h"

#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Serialization/ASTWriter.h"
#include "clang/Serialization/PCHContainerOperations.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <random>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace gradlint {

/// What a PCH build produced: the PCH's bytes, the content hash of every
/// file it read, and the paths it looked up and did not find.
struct BuiltPch {
  std::string bytes;
  std::vector<std::pair<std::string, std::string>> userFiles; ///< path, contentHash
  std::vector<std::string> absentPaths;                       ///< looked up, not found
  std::string directory;    ///< the command's, for the files' relative paths
  int64_t startedNs = 0;    ///< when the build began, on the realtime clock
  std::string prefixHeader; ///< the cache's header holding the include prefix
};

namespace {

bool isPragmaOnce(llvm::StringRef line) {
  if (!line.consume_front("#"))
    return false;
  line = line.ltrim(" \t");
  if (!line.consume_front("pragma"))
    return false;
  return line.trim() == "once" && line.size() > line.ltrim(" \t").size();
}

/// "#include <x>" or "#include "x"" (and an optional // comment after it):
/// the directive without the comment; empty when the line is anything else.
std::string includeDirective(llvm::StringRef line) {
  llvm::StringRef rest = line.trim();
  if (!rest.consume_front("#"))
    return "";
  rest = rest.ltrim(" \t");
  if (!rest.consume_front("include"))
    return "";
  rest = rest.ltrim(" \t");
  if (rest.empty() || (rest[0] != '<' && rest[0] != '"'))
    return "";
  char close = rest[0] == '<' ? '>' : '"';
  size_t end = rest.find(close, 1);
  if (end == llvm::StringRef::npos || end == 1)
    return "";
  llvm::StringRef after = rest.drop_front(end + 1).trim();
  if (!after.empty() && !after.starts_with("//"))
    return "";
  return ("#include " + rest.take_front(end + 1)).str();
}

/// Arguments that name the input (dropped from the key) and arguments that
/// make the cache unsafe to use (their own PCH, forced includes).
bool conflictsWithCache(const std::vector<std::string> &args) {
  for (const std::string &arg : args)
    if (llvm::StringRef(arg).starts_with("-include") || arg == "-imacros" ||
        llvm::StringRef(arg).starts_with("-preamble-bytes"))
      return true;
  return false;
}

/// The arguments without the source files they compile: what the PCH of any
/// TU compiled with the same options is built with.
std::vector<std::string> withoutInputs(const std::vector<std::string> &args) {
  static const char *const takesValue[] = {
      "-D", "-U",  "-I",  "-isystem", "-iquote", "-idirafter", "-include", "-imacros", "-Xclang",
      "-x", "-MF", "-MT", "-MQ",      "-o",      "-target",    "--target", "-isysroot"};
  // Headers too: a header analysed as the main file is an input as well.
  static const char *const sourceExtensions[] = {".cpp", ".cc",  ".cxx", ".c++", ".cp",   ".C",
                                                 ".CPP", ".c",   ".cu",  ".ixx", ".cppm", ".h",
                                                 ".hh",  ".hpp", ".hxx", ".h++", ".cuh",  ".H"};
  std::vector<std::string> kept;
  for (size_t i = 0; i < args.size(); ++i) {
    llvm::StringRef arg = args[i];
    if (arg == "--")
      break; // only inputs follow (inferred database commands end "-- file")
    bool valueOfFlag = i > 0 && llvm::is_contained(takesValue, llvm::StringRef(args[i - 1]));
    if (i > 0 && !valueOfFlag && !arg.starts_with("-") &&
        llvm::any_of(sourceExtensions, [&](const char *ext) { return arg.ends_with(ext); }))
      continue;
    kept.push_back(args[i]);
  }
  return kept;
}

/// Whether the PCH built from `options` and `headerText` could read a file
/// found through the working directory: a relative path after a path flag
/// (-I include, -isystem../x, --sysroot=s), any other relative path-like
/// argument, a response file, or a quoted include left relative. Where none
/// can, the directory stays out of the key, so that the same sources in
/// another directory share the PCH.
bool dependsOnDirectory(const std::vector<std::string> &options, llvm::StringRef headerText) {
  static const char *const pathFlags[] = {"-I",
                                          "--include-directory-after",
                                          "--include-directory",
                                          "-isystem",
                                          "-iquote",
                                          "-idirafter",
                                          "-cxx-isystem",
                                          "-iprefix",
                                          "-iwithprefix",
                                          "-iwithprefixbefore",
                                          "-isysroot",
                                          "--sysroot",
                                          "-F",
                                          "-iframework",
                                          "-ivfsoverlay",
                                          "-working-directory",
                                          "-fmodule-map-file",
                                          "-fmodules-cache-path",
                                          "-B",
                                          "--gcc-toolchain",
                                          "--gcc-install-dir"};
  auto relative = [](llvm::StringRef path) { return !llvm::sys::path::is_absolute(path); };
  for (size_t i = 0; i < options.size(); ++i) {
    llvm::StringRef arg = options[i];
    if (arg.starts_with("@"))
      return true;
    llvm::StringRef previous = i > 0 ? llvm::StringRef(options[i - 1]) : "";
    if (!arg.starts_with("-")) {
      // A flag's separate value: a path flag's, or one passed through.
      if ((llvm::is_contained(pathFlags, previous) || previous == "-Xclang" ||
           previous == "-mllvm") &&
          relative(arg))
        return true;
      if (arg.contains('/') && relative(arg))
        return true;
      continue;
    }
    bool pathFlag = false;
    for (llvm::StringRef flag : pathFlags)
      if (arg.starts_with(flag) && arg.size() > flag.size()) {
        llvm::StringRef value = arg.drop_front(flag.size());
        value.consume_front("=");
        if (relative(value))
          return true;
        pathFlag = true;
        break;
      }
    // Any other argument with a path in it (-DDIR=data/x): absolute after '='.
    if (!pathFlag && arg.contains('/') && !arg.contains("=/"))
      return true;
  }
  llvm::SmallVector<llvm::StringRef, 16> lines;
  headerText.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    size_t quote = line.find('"');
    if (line.starts_with("#include") && quote != llvm::StringRef::npos &&
        relative(line.drop_front(quote + 1)))
      return true;
  }
  return false;
}

std::string contentHash(llvm::StringRef bytes) {
  return llvm::utohexstr(llvm::xxh3_64bits(llvm::arrayRefFromStringRef(bytes)));
}

/// "<size> <xxh3>" of a PCH's bytes. Clang notices a truncated PCH but not
/// every overwritten byte, so each PCH has this fingerprint beside it.
std::string fingerprintOfBytes(llvm::StringRef bytes) {
  return std::to_string(bytes.size()) + " " + contentHash(bytes);
}

/// fingerprintOfBytes of a file; empty when it cannot be read.
std::string fingerprintOf(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  return buffer ? fingerprintOfBytes((*buffer)->getBuffer()) : "";
}

std::string readSmallFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  return buffer ? (*buffer)->getBuffer().str() : "";
}

/// Writes `contents` through a unique temporary file and a rename.
std::error_code writeByRename(const std::string &path, llvm::StringRef contents,
                              const std::string &suffix) {
  std::string temporary = path + ".tmp-" + suffix;
  std::error_code ec;
  {
    llvm::raw_fd_ostream out(temporary, ec);
    if (!ec) {
      out << contents;
      out.close();
      ec = out.error();
      out.clear_error(); // a stream destroyed with an error aborts the process
    }
  }
  if (!ec)
    ec = llvm::sys::fs::rename(temporary, path);
  if (ec)
    llvm::sys::fs::remove(temporary);
  return ec;
}

std::string uniqueSuffix() {
  static std::atomic<unsigned> counter{0};
  std::random_device random;
  return std::to_string(llvm::sys::Process::getProcessId()) + "-" + std::to_string(counter++) +
         "-" + std::to_string(random());
}

constexpr size_t kKeyLength = 32; ///< hex digits of a cache key
/// A temporary file younger than this may still be being written by another process.
constexpr time_t kTemporaryFileGraceSeconds = 10 * 60;

/// One of the cache's own files, by its name: "<key>.h", "<key>.pch",
/// "<key>.pch.sum" or "<key>.lock", or a temporary file of one: "<name>.tmp-<pid>-<n>-<random>"
/// (writeByRename, uniqueSuffix), and clang's own temporary while it writes a
/// PCH, "<key>.pch-<8 hex>.tmp-<pid>-<n>-<random>.tmp".
struct CacheFileName {
  std::string key;
  bool temporary = false;
  long writerPid = 0; ///< of a temporary file
};

std::optional<CacheFileName> parseCacheFileName(llvm::StringRef name) {
  auto isLowerHex = [](char c) { return llvm::isDigit(c) || (c >= 'a' && c <= 'f'); };
  auto isNumber = [](llvm::StringRef text) {
    return !text.empty() && llvm::all_of(text, llvm::isDigit);
  };
  if (name.size() <= kKeyLength || !llvm::all_of(name.take_front(kKeyLength), isLowerHex))
    return std::nullopt;
  CacheFileName parsed;
  parsed.key = name.take_front(kKeyLength).str();
  llvm::StringRef rest = name.drop_front(kKeyLength);
  bool pch = false;
  if (rest == ".lock")
    return parsed;
  if (rest.consume_front(".pch.sum")) {
  } else if (rest.consume_front(".pch")) {
    pch = true;
  } else if (!rest.consume_front(".h")) {
    return std::nullopt;
  }
  if (rest.empty())
    return parsed;
  if (pch && rest.size() > 9 && rest[0] == '-' && llvm::all_of(rest.slice(1, 9), isLowerHex)) {
    rest = rest.drop_front(9);
    if (!rest.consume_back(".tmp"))
      return std::nullopt;
  }
  if (!rest.consume_front(".tmp-"))
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 3> fields;
  rest.split(fields, '-');
  if (fields.size() != 3 || !llvm::all_of(fields, isNumber) ||
      fields[0].getAsInteger(10, parsed.writerPid))
    return std::nullopt;
  parsed.temporary = true;
  return parsed;
}

/// Marks a cache entry as just used, for eviction's least-recently-used
/// order. Best effort: a read-only directory keeps the old time.
void touch(const std::string &path) { ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0); }

/// Takes the PCH from the buffer the PCHGenerator before it filled, and the
/// files the preprocessor read.
class PchCollector : public clang::ASTConsumer {
public:
  PchCollector(std::shared_ptr<clang::PCHBuffer> buffer, BuiltPch &out)
      : buffer_(std::move(buffer)), out_(out) {}

  void HandleTranslationUnit(clang::ASTContext &context) override {
    if (!buffer_->IsComplete)
      return;
    out_.bytes.assign(buffer_->Data.begin(), buffer_->Data.end());
    const clang::SourceManager &sources = context.getSourceManager();
    for (unsigned i = 0, n = sources.local_sloc_entry_size(); i < n; ++i) {
      const clang::SrcMgr::SLocEntry &entry = sources.getLocalSLocEntry(i);
      // System headers too: the API model is one, and is replaced in place.
      if (!entry.isFile())
        continue;
      const clang::SrcMgr::ContentCache &content = entry.getFile().getContentCache();
      std::optional<llvm::MemoryBufferRef> text = content.getBufferIfLoaded();
      if (content.OrigEntry && text)
        out_.userFiles.push_back(
            {content.OrigEntry->getName().str(), contentHash(text->getBuffer())});
    }
    llvm::sort(out_.userFiles);
    out_.userFiles.erase(std::unique(out_.userFiles.begin(), out_.userFiles.end()),
                         out_.userFiles.end());
  }

private:
  std::shared_ptr<clang::PCHBuffer> buffer_;
  BuiltPch &out_;
};

/// GeneratePCHAction whose PCH stays in memory: the caller writes it, so
/// that a full disk is an error it handles, not LLVM's fatal "IO failure on
/// output stream", which aborts the process.
class InMemoryPchAction : public clang::GeneratePCHAction {
public:
  explicit InMemoryPchAction(BuiltPch &out) : out_(out) {}

protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &compiler,
                                                        llvm::StringRef) override {
    std::string sysroot;
    if (!ComputeASTConsumerArguments(compiler, sysroot))
      return nullptr;
    if (!compiler.getFrontendOpts().RelocatablePCH)
      sysroot.clear();
    auto buffer = std::make_shared<clang::PCHBuffer>();
    const clang::FrontendOptions &frontend = compiler.getFrontendOpts();
    std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
    consumers.push_back(std::make_unique<clang::PCHGenerator>(
        compiler.getPreprocessor(), compiler.getModuleCache(), frontend.OutputFile, sysroot, buffer,
        frontend.ModuleFileExtensions, compiler.getPreprocessorOpts().AllowPCHWithCompilerErrors,
        frontend.IncludeTimestamps));
    consumers.push_back(std::make_unique<PchCollector>(buffer, out_));
    return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
  }

private:
  BuiltPch &out_;
};

/// Builds a PCH of the invocation's input into memory, whatever frontend
/// action the arguments name.
class BuildPchAction : public clang::tooling::ToolAction {
public:
  BuildPchAction(std::string output, BuiltPch &out) : output_(std::move(output)), out_(out) {}

  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> invocation,
                     clang::FileManager *files,
                     std::shared_ptr<clang::PCHContainerOperations> containers,
                     clang::DiagnosticConsumer *diagnostics) override {
    invocation->getFrontendOpts().OutputFile = output_;
    invocation->getFrontendOpts().ProgramAction = clang::frontend::GeneratePCH;
    // Instantiate the headers' pending templates once, in the PCH, instead of
    // at the end of every file that uses it (LibTorch: 2.7 s -> 1.0 s per file).
    invocation->getLangOpts().PCHInstantiateTemplates = true;
    clang::CompilerInstance compiler(std::move(containers));
    compiler.setInvocation(std::move(invocation));
    compiler.setFileManager(files);
    compiler.createDiagnostics(diagnostics, /*ShouldOwnClient=*/false);
    if (!compiler.hasDiagnostics())
      return false;
    compiler.createSourceManager(*files);
    InMemoryPchAction action(out_);
    bool ok = compiler.ExecuteAction(action);
    files->clearStatCache();
    return ok && !compiler.getDiagnostics().hasErrorOccurred();
  }

private:
  std::string output_; ///< the name the PCH records for itself
  BuiltPch &out_;
};

/// Counts errors, prints nothing.
class QuietConsumer : public clang::DiagnosticConsumer {};

/// How long a process waits for another one building the same key before it
/// builds the PCH itself (a LibTorch preamble builds in about 20 s).
constexpr int kKeyLockWaitSeconds = 180;

/// Whether `fd` is still the file at `path`: eviction deletes a lock file
/// while holding it, and a lock on the deleted file no longer excludes anyone.
bool stillNamedBy(int fd, const char *path) {
  struct stat opened, named;
  return ::fstat(fd, &opened) == 0 && ::stat(path, &named) == 0 && opened.st_ino == named.st_ino &&
         opened.st_dev == named.st_dev;
}

/// An exclusive flock on "<key>.lock" in the cache directory: of the
/// processes sharing the cache, one builds a key at a time and the others
/// then find its PCH. Best effort: a lock file that cannot be opened, or a
/// holder slower than kKeyLockWaitSeconds, lets the caller go on without it
/// (at worst the PCH is built twice; the renames keep it whole).
class KeyFileLock {
public:
  explicit KeyFileLock(const std::string &path) {
    for (int waited = 0; waited <= kKeyLockWaitSeconds * 1000; waited += 50) {
      fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
      struct stat status;
      if (fd_ < 0 || ::fstat(fd_, &status) != 0 || !S_ISREG(status.st_mode))
        break;
      if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) {
        if (stillNamedBy(fd_, path.c_str()))
          return;
        // Evicted while we waited: lock the file that replaces it.
      } else if (errno != EWOULDBLOCK && errno != EINTR) {
        break;
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      release();
    }
    release();
  }
  ~KeyFileLock() { release(); }
  KeyFileLock(const KeyFileLock &) = delete;
  KeyFileLock &operator=(const KeyFileLock &) = delete;

private:
  void release() { // closing the descriptor drops the lock
    if (fd_ >= 0)
      ::close(fd_);
    fd_ = -1;
  }
  int fd_ = -1;
};

/// The files a command's parse reads: the disk, with the API model's
/// placeholders when it uses them, relative to its directory.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystemFor(const FileCommand &command) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem =
      llvm::vfs::createPhysicalFileSystem();
  if (command.usesApiModel)
    fileSystem = makeApiModelFileSystem(fileSystem, CompilationSetup::apiModelDir());
  fileSystem->setCurrentWorkingDirectory(command.directory);
  return fileSystem;
}

/// The ".pch.sum" beside a PCH: its fingerprint, then "<xxh3> <signature>
/// <path>" per file it was built from (system headers too), then "- <path>"
/// per path its build looked up and did not find.
std::string summaryOf(const BuiltPch &built) {
  std::string summary = fingerprintOfBytes(built.bytes) + "\n";
  for (const auto &[path, hash] : built.userFiles)
    // The include prefix written for the build is compared before each use.
    if (path != built.prefixHeader)
      summary +=
          hash + " " + statSignature(path, built.directory, built.startedNs) + " " + path + "\n";
  for (const std::string &path : built.absentPaths)
    summary += "- " + path + "\n";
  return summary;
}

/// Whether a PCH may be reused, and the summary to write back when it may
/// and some of its files had to be hashed because their signatures changed
/// (a checkout, a cache restored in CI): the next reuse then stats them only.
struct Staleness {
  std::string reason; ///< empty: reusable
  std::string refreshedSummary;
  unsigned filesChecked = 0, filesHashed = 0, absentChecked = 0;
  uint64_t micros = 0;

  static Staleness stale(std::string why) { return {std::move(why), "", 0, 0, 0, 0}; }
};

/// Empty reason when the PCH still matches its summary, every file it was
/// built from has the same content and every path it did not find is still
/// absent; otherwise why not. Clang checks only the size and mtime of the
/// files a PCH read when it loads it, and none of the paths it did not find:
/// a same-size edit within the mtime's granularity, or a header created
/// earlier on the include path, would go unseen. A file whose stat signature
/// is unchanged is not read. `absentPaths` gets the summary's absent paths.
Staleness staleness(const std::string &pch, const std::string &summary, const FileCommand &command,
                    std::vector<std::string> &absentPaths) {
  llvm::SmallVector<llvm::StringRef, 16> lines;
  llvm::StringRef(summary).split(lines, '\n', -1, /*KeepEmpty=*/false);
  if (lines.empty())
    return Staleness::stale("its summary is missing");
  if (fingerprintOf(pch) != lines.front())
    return Staleness::stale("the PCH file does not match its summary");
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem;
  absentPaths.clear();
  Staleness result;
  std::string refreshed = lines.front().str() + "\n";
  int64_t now = realtimeNs();
  auto started = std::chrono::steady_clock::now();
  for (llvm::StringRef line : llvm::ArrayRef(lines).drop_front()) {
    auto [hash, rest] = line.split(' ');
    if (hash == "-") {
      if (!stillAbsent(rest.str()))
        return Staleness::stale(rest.str() + " exists now");
      absentPaths.push_back(rest.str());
      ++result.absentChecked;
      refreshed += line.str() + "\n";
      continue;
    }
    auto [signature, path] = rest.split(' ');
    if (path.empty())
      return Staleness::stale("its summary is damaged");
    ++result.filesChecked;
    std::string current = statSignature(path, command.directory, now);
    if (signature != "=" && current == signature) {
      refreshed += line.str() + "\n";
      continue;
    }
    if (!fileSystem)
      fileSystem = fileSystemFor(command);
    auto buffer = fileSystem->getBufferForFile(path, -1, /*RequiresNullTerminator=*/false);
    ++result.filesHashed;
    if (!buffer || contentHash((*buffer)->getBuffer()) != hash)
      return Staleness::stale(path.str() + (buffer ? " changed" : " is gone"));
    refreshed += hash.str() + " " + current + " " + path.str() + "\n";
  }
  if (result.filesHashed > 0 && refreshed != summary)
    result.refreshedSummary = std::move(refreshed);
  result.micros = std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::steady_clock::now() - started)
                      .count();
  return result;
}

} // namespace

IncludePrefix includePrefixOf(llvm::StringRef contents) {
  IncludePrefix prefix;
  size_t offset = 0;
  bool inBlockComment = false;
  while (offset < contents.size()) {
    size_t newline = contents.find('\n', offset);
    if (newline == llvm::StringRef::npos)
      break; // the prefix must end at the start of a line
    llvm::StringRef line = contents.slice(offset, newline);
    llvm::StringRef trimmed = line.trim();
    if (inBlockComment) {
      size_t end = trimmed.find("*/");
      if (end != llvm::StringRef::npos) {
        if (!trimmed.drop_front(end + 2).trim().empty())
          break;
        inBlockComment = false;
      }
    } else if (trimmed.empty() || trimmed.starts_with("//")) {
      if (trimmed.ends_with("\\"))
        break; // a comment continued onto the next line: keep it simple
    } else if (trimmed.starts_with("/*")) {
      size_t end = trimmed.find("*/", 2);
      if (end == llvm::StringRef::npos)
        inBlockComment = true;
      else if (!trimmed.drop_front(end + 2).trim().empty())
        break;
    } else if (isPragmaOnce(trimmed)) {
      // A header analysed as the main file: `#pragma once` means nothing
      // there, so the prefix may cover it.
    } else {
      std::string directive = includeDirective(line);
      if (directive.empty())
        break;
      prefix.lines.push_back(directive);
    }
    offset = newline + 1;
    if (!inBlockComment && !prefix.lines.empty())
      prefix.bytes = offset;
  }
  // Comment lines after the last #include stay in the main file.
  return prefix;
}

bool isPreambleLoadFailure(unsigned diagnosticId) {
  return (diagnosticId >= clang::diag::DIAG_START_SERIALIZATION &&
          diagnosticId < clang::diag::DIAG_START_LEX) ||
         diagnosticId == clang::diag::err_fe_unable_to_load_pch;
}

std::optional<uint64_t> parseByteSize(const std::string &text) {
  size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])))
    ++digits;
  if (digits == 0 || digits > 19 || text.size() - digits > 1)
    return std::nullopt;
  uint64_t number = std::strtoull(text.substr(0, digits).c_str(), nullptr, 10);
  unsigned shift = 0;
  if (digits < text.size()) {
    switch (std::toupper(static_cast<unsigned char>(text[digits]))) {
    case 'K': shift = 10; break;
    case 'M': shift = 20; break;
    case 'G': shift = 30; break;
    default: return std::nullopt;
    }
  }
  if (number > (UINT64_MAX >> shift))
    return std::nullopt;
  return number << shift;
}

PreambleCache::PreambleCache(std::string directory, uint64_t maxBytes)
    : directory_(std::move(directory)), maxBytes_(maxBytes) {}

std::string PreambleCache::defaultDirectory() {
  llvm::SmallString<256> path;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    path = xdg;
  } else if (const char *home = std::getenv("HOME"); home && *home) {
    path = home;
    llvm::sys::path::append(path, ".cache");
  } else {
    return "";
  }
  llvm::sys::path::append(path, "gradlint");
  return std::string(path);
}

std::vector<std::string> PreambleCache::argsWith(const std::vector<std::string> &args,
                                                 const Preamble &preamble) {
  std::vector<std::string> extra = {
      "-Xclang",      "-fmodules-validate-system-headers",
      "-include-pch", preamble.pchPath,
      "-Xclang",      "-preamble-bytes=" + std::to_string(preamble.prefixBytes) + ",1"};
  // Options go before a "--": what follows it are inputs.
  std::vector<std::string> out = args;
  out.insert(std::find(out.begin(), out.end(), "--"), extra.begin(), extra.end());
  return out;
}

std::string PreambleCache::takeNote() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (noteTaken_ || note_.empty())
    return "";
  noteTaken_ = true;
  return note_;
}

std::vector<std::string> PreambleCache::failedKeys() {
  std::lock_guard<std::mutex> lock(mutex_);
  return {failedKeys_.begin(), failedKeys_.end()};
}

bool PreambleCache::unusable() {
  std::lock_guard<std::mutex> lock(mutex_);
  return unusable_;
}

void PreambleCache::adopt(const std::vector<std::string> &failedKeys, bool unusable,
                          const std::string &note) {
  std::lock_guard<std::mutex> lock(mutex_);
  failedKeys_.insert(failedKeys.begin(), failedKeys.end());
  unusable_ = unusable_ || unusable;
  if (unusable && note_.empty()) {
    note_ = note;
    noteTaken_ = true; // the child's report was the one shown
  }
}

void PreambleCache::noteProblem(const std::string &problem) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (note_.empty())
    note_ = problem;
}

std::shared_ptr<void> PreambleCache::markInUse(const std::string &key) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++inUse_[key];
  // The deleter runs when the last copy of the Preamble goes.
  return std::shared_ptr<void>(this, [this, key](void *) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (--inUse_[key] == 0)
      inUse_.erase(key);
  });
}

std::shared_ptr<std::mutex> PreambleCache::lockFor(const std::string &key) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<std::mutex> &slot = keyLocks_[key];
  if (!slot)
    slot = std::make_shared<std::mutex>();
  return slot;
}

std::optional<PreambleCache::Preamble> PreambleCache::preambleFor(const FileCommand &command,
                                                                  const std::string &mainFile,
                                                                  llvm::StringRef contents,
                                                                  const Preamble *failed) {
  if (directory_.empty() || command.args.empty() || conflictsWithCache(command.args))
    return std::nullopt;
  IncludePrefix prefix = includePrefixOf(contents);
  if (prefix.lines.empty() || prefix.bytes == 0)
    return std::nullopt;

  // The header lives in the cache directory, so quoted includes found beside
  // the main file are written with their absolute path.
  std::string mainDir(llvm::sys::path::parent_path(mainFile));
  std::string headerText = "// gradlint preamble of the #include lines of a translation unit\n";
  std::vector<std::string> besideLookups;
  for (const std::string &line : prefix.lines) {
    llvm::StringRef directive(line);
    size_t quote = directive.find('"');
    if (quote != llvm::StringRef::npos) {
      llvm::StringRef name = directive.slice(quote + 1, directive.size() - 1);
      llvm::SmallString<256> beside(mainDir);
      llvm::sys::path::append(beside, name);
      if (!llvm::sys::path::is_absolute(name)) {
        if (llvm::sys::fs::exists(beside)) {
          headerText += "#include \"" + std::string(beside) + "\"\n";
          continue;
        }
        // The main file's parse would have looked there first.
        besideLookups.push_back(std::string(beside));
      }
    }
    headerText += line + "\n";
  }

  llvm::SHA256 hasher;
  auto feed = [&](llvm::StringRef text) {
    hasher.update(text);
    hasher.update(llvm::StringRef("\0", 1));
  };
  feed("gradlint-preamble-6"); // 6: summaries keep each file's stat signature
  feed(GRADLINT_VERSION);
  feed(clang::getClangFullVersion());
  std::vector<std::string> options = withoutInputs(command.args);
  for (const std::string &arg : options)
    feed(arg);
  // A fixed database's directory is "." (the process's): made absolute.
  llvm::SmallString<256> directory(command.directory);
  llvm::sys::fs::make_absolute(directory);
  feed(dependsOnDirectory(options, headerText) ? directory.str() : llvm::StringRef("(any)"));
  feed(headerText);
  std::array<uint8_t, 32> digest = hasher.final();
  std::string key = llvm::toHex(llvm::ArrayRef(digest).take_front(16), /*LowerCase=*/true);

  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (unusable_ || failedKeys_.count(key))
      return std::nullopt;
  }
  std::shared_ptr<std::mutex> keyLock = lockFor(key);
  std::unique_lock<std::mutex> building(*keyLock);

  if (std::error_code ec = llvm::sys::fs::create_directories(directory_)) {
    noteProblem("cannot use the cache directory " + directory_ + ": " + ec.message() +
                "; analysing without precompiled headers");
    std::lock_guard<std::mutex> lock(mutex_);
    unusable_ = true;
    return std::nullopt;
  }
  llvm::SmallString<256> header(directory_), pch(directory_), lockFile(directory_);
  llvm::sys::path::append(header, key + ".h");
  llvm::sys::path::append(pch, key + ".pch");
  llvm::sys::path::append(lockFile, key + ".lock");
  KeyFileLock otherProcesses{std::string(lockFile)};
  auto giveUp = [&](const std::string &problem) {
    noteProblem(problem + "; analysing without precompiled headers");
    std::lock_guard<std::mutex> lock(mutex_);
    unusable_ = true;
    return std::nullopt;
  };

  // The header must keep its mtime (the PCH records it): written only when
  // missing or not what it should be, through a temporary file and a rename.
  bool headerChanged = false;
  if (readSmallFile(std::string(header)) != headerText) {
    if (std::error_code ec = writeByRename(std::string(header), headerText, uniqueSuffix()))
      return giveUp("cannot write to the cache directory " + directory_ + ": " + ec.message());
    headerChanged = true;
  }

  std::string summaryFile = std::string(pch) + ".sum";
  unsigned generation;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    generation = generations_[key];
  }
  std::string reason;
  std::vector<std::string> absentPaths;
  Staleness stale;
  if (failed && failed->generation == generation)
    reason = "the PCH did not load";
  else if (headerChanged)
    reason = "a new include prefix";
  else if (!llvm::sys::fs::exists(pch))
    reason = "no PCH for this include prefix";
  else if (stale = staleness(std::string(pch), readSmallFile(summaryFile), command, absentPaths);
           !stale.reason.empty())
    reason = stale.reason;
  else if (!stale.refreshedSummary.empty())
    // Best effort: a summary not rewritten is hashed again next time.
    (void)writeByRename(summaryFile, stale.refreshedSummary, uniqueSuffix());
  bool built = false;
  if (!reason.empty()) {
    // The same options, the header as the input.
    FileCommand build = command;
    build.args = options;
    for (const char *arg : {"-Xclang", "-fmodules-validate-system-headers", "-x", "c++-header"})
      build.args.push_back(arg);
    build.args.push_back(std::string(header));
    BuiltPch output;
    output.prefixHeader = std::string(header);
    if (!buildPch(build, std::string(pch), output) || output.bytes.empty()) {
      ++buildFailures;
      std::lock_guard<std::mutex> lock(mutex_);
      failedKeys_.insert(key);
      return std::nullopt;
    }
    // The summary goes after the PCH: a PCH without its summary is rebuilt.
    std::error_code ec = writeByRename(std::string(pch), output.bytes, uniqueSuffix());
    if (!ec)
      ec = writeByRename(summaryFile, summaryOf(output), uniqueSuffix());
    if (ec) {
      ++buildFailures;
      return giveUp("cannot write a precompiled header to the cache directory " + directory_ +
                    ": " + ec.message());
    }
    ++builds;
    built = true;
    absentPaths = std::move(output.absentPaths);
    reason = "built: " + reason;
    std::lock_guard<std::mutex> lock(mutex_);
    generation = ++generations_[key];
  } else {
    ++hits;
    // What the reuse cost: the benchmark reads this line.
    reason = "reused: checked " + std::to_string(stale.filesChecked) + " files (" +
             std::to_string(stale.filesHashed) + " hashed, the rest by status) and " +
             std::to_string(stale.absentChecked) + " absent paths in " +
             std::to_string((stale.micros + 500) / 1000) + " ms";
    touch(std::string(pch));
  }
  absentPaths.insert(absentPaths.end(), besideLookups.begin(), besideLookups.end());
  Preamble preamble{std::string(pch),  prefix.bytes,           generation,    built,
                    std::move(reason), std::move(absentPaths), markInUse(key)};
  building.unlock();
  if (built && maxBytes_ > 0)
    evictOverLimit();
  return preamble;
}

void PreambleCache::evictOverLimit() {
  std::lock_guard<std::mutex> evicting(evictionMutex_);
  DIR *dir = ::opendir(directory_.c_str());
  if (!dir)
    return;
  int dirFd = ::dirfd(dir);
  struct Entry {
    std::vector<std::pair<std::string, uint64_t>> files; ///< name, size
    /// The PCH's mtime (a hit touches it), else the newest of its other files'.
    struct timespec lastUse{};
    bool hasPch = false;
    bool beingWritten = false; ///< another process's temporary file is young
  };
  std::map<std::string, Entry> entries;
  std::map<std::string, uint64_t> staleTemporaries; ///< left by killed processes
  uint64_t total = 0;
  time_t now = ::time(nullptr);
  long self = llvm::sys::Process::getProcessId();
  auto newer = [](const struct timespec &a, const struct timespec &b) {
    return a.tv_sec != b.tv_sec ? a.tv_sec > b.tv_sec : a.tv_nsec > b.tv_nsec;
  };
  while (struct dirent *item = ::readdir(dir)) {
    std::optional<CacheFileName> name = parseCacheFileName(item->d_name);
    struct stat status;
    // Only our own regular files count; anything else in the directory is left alone.
    if (!name || ::fstatat(dirFd, item->d_name, &status, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISREG(status.st_mode))
      continue;
    uint64_t size = static_cast<uint64_t>(status.st_size);
    total += size;
    if (name->temporary) {
      if (name->writerPid != self && now - status.st_mtime > kTemporaryFileGraceSeconds)
        staleTemporaries[item->d_name] = size;
      else
        entries[name->key].beingWritten = true;
      continue;
    }
    Entry &entry = entries[name->key];
    entry.files.push_back({item->d_name, size});
    bool isPch = llvm::StringRef(item->d_name).ends_with(".pch");
    if (isPch || (!entry.hasPch && newer(status.st_mtim, entry.lastUse)))
      entry.lastUse = status.st_mtim;
    entry.hasPch = entry.hasPch || isPch;
  }
  if (total <= maxBytes_) {
    ::closedir(dir);
    return;
  }
  auto deleteFile = [&](const std::string &file, uint64_t size) {
    total -= std::min(total, size); // gone either way: deleted here or by another process
    if (::unlinkat(dirFd, file.c_str(), 0) == 0) {
      evictedBytes += size;
      return true;
    }
    return false;
  };
  for (const auto &[file, size] : staleTemporaries)
    deleteFile(file, size);

  std::vector<std::pair<std::string, Entry *>> oldestFirst;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto &[key, entry] : entries)
      if (!entry.files.empty() && !entry.beingWritten && !inUse_.count(key))
        oldestFirst.push_back({key, &entry});
  }
  std::sort(oldestFirst.begin(), oldestFirst.end(), [&](const auto &a, const auto &b) {
    return newer(b.second->lastUse, a.second->lastUse);
  });
  for (auto &[key, entry] : oldestFirst) {
    if (total <= maxBytes_)
      break;
    // A hit in another process since the listing makes the entry recent again.
    struct stat status;
    if (::fstatat(dirFd, (key + ".pch").c_str(), &status, AT_SYMLINK_NOFOLLOW) == 0 &&
        newer(status.st_mtim, entry->lastUse))
      continue;
    // A key another process is building (it holds the lock) stays; a lock
    // taken here keeps new builders out until the entry is gone.
    int lockFd =
        ::openat(dirFd, (key + ".lock").c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (lockFd >= 0 && ::flock(lockFd, LOCK_EX | LOCK_NB) != 0) {
      ::close(lockFd);
      continue;
    }
    // The PCH first: a reader that finds it gone rebuilds the whole entry.
    // The lock file last, still held: its waiters see it gone and retry.
    auto rank = [](const std::string &name) {
      llvm::StringRef file(name);
      return file.ends_with(".pch") ? 0 : file.ends_with(".lock") ? 2 : 1;
    };
    std::sort(entry->files.begin(), entry->files.end(),
              [&](const auto &a, const auto &b) { return rank(a.first) < rank(b.first); });
    bool removed = false;
    for (const auto &[file, size] : entry->files)
      removed = deleteFile(file, size) || removed;
    if (lockFd >= 0)
      ::close(lockFd);
    if (removed)
      ++evictedEntries;
  }
  ::closedir(dir);
}

bool PreambleCache::buildPch(const FileCommand &command, const std::string &pch, BuiltPch &output) {
  // The same placeholders as the parse that will load the PCH.
  auto lookups = llvm::makeIntrusiveRefCnt<LookupRecordingFileSystem>(fileSystemFor(command));
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(
      new clang::FileManager(clang::FileSystemOptions(), lookups));
  output.directory = command.directory;
  output.startedNs = realtimeNs();
  BuildPchAction action(pch, output);
  clang::tooling::ToolInvocation invocation(command.args, &action, files.get(),
                                            std::make_shared<clang::PCHContainerOperations>());
  QuietConsumer quiet;
  invocation.setDiagnosticConsumer(&quiet);
  bool ok = invocation.run() && quiet.getNumErrors() == 0;
  // The PCH's own path was not there before it was written.
  for (std::string &path : lookups->absentPaths())
    if (!llvm::StringRef(path).starts_with(pch))
      output.absentPaths.push_back(std::move(path));
  return ok;
}

} // namespace gradlint
