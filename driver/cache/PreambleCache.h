// A cache of precompiled headers of translation units' include prefixes (the
// #include lines at the top of the main file), shared between runs and
// processes through a directory.
//
// The prefix becomes a header in the cache directory; its PCH is built once
// per key (clang version, the parse-affecting arguments, the working
// directory, the prefix text). A TU is then parsed with -include-pch and
// -preamble-bytes, so the main file's own prefix bytes are skipped rather
// than re-included. Clang checks the size and mtime of every header the PCH
// was built from (system headers too, with -fmodules-validate-system-headers)
// when it loads it; a load failure rebuilds the PCH once, then the TU is
// parsed without one. The cache never fails a TU.
//
// The directory is kept under a size limit: after a PCH is written, the least
// recently used entries (by mtime, which a hit refreshes) are deleted until
// the cache files fit, sparing entries this process is using and files
// another process is writing. Only files named like the cache's own are
// counted or deleted.
#pragma once

#include "driver/analysis/FileCommand.h"

#include "llvm/ADT/StringRef.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gradlint {

/// The leading run of #include lines (blank and comment lines between them
/// allowed) at the top of a main file.
struct IncludePrefix {
  std::vector<std::string> lines; ///< each #include line, as written
  size_t bytes = 0;               ///< main file bytes the prefix covers; ends after a newline
};
IncludePrefix includePrefixOf(llvm::StringRef contents);

/// A cache size limit: "<n>", "<n>K", "<n>M" or "<n>G" (powers of 1024, either
/// case) in bytes; nullopt when malformed or too large.
std::optional<uint64_t> parseByteSize(const std::string &text);

/// Whether a clang diagnostic says a PCH could not be loaded (missing,
/// corrupt, out of date, built with other options).
bool isPreambleLoadFailure(unsigned diagnosticId);

struct BuiltPch; ///< a PCH built into memory

class PreambleCache {
public:
  /// Used for the API model too: its TU parses in 0.3 s with a PCH, 1.25 s without.
  /// `maxBytes` bounds the cache files' total size (0: no limit).
  PreambleCache(std::string directory, uint64_t maxBytes);

  /// $XDG_CACHE_HOME/gradlint, else ~/.cache/gradlint.
  static std::string defaultDirectory();

  struct Preamble {
    std::string pchPath;
    size_t prefixBytes = 0;
    unsigned generation = 0; ///< builds of this key in this process before it
    bool built = false;      ///< built by this call, not reused
    /// Why it was built, or that it was reused ("reused", "built: <why>").
    std::string reason;
    /// The paths its build looked up and did not find (absolute): a parse
    /// with this PCH repeats none of its lookups, yet depends on them.
    std::vector<std::string> absentPaths;
    /// While a copy lives, this process's evictions spare the entry.
    std::shared_ptr<void> inUse;
  };

  /// The PCH to parse `mainFile` (real path, with `contents`) with, built
  /// when missing or when `failed` (one that did not load) is still the
  /// latest (threads that failed on the same PCH rebuild it once). None when
  /// the prefix is not worth one or the cache cannot be used. Thread-safe.
  std::optional<Preamble> preambleFor(const FileCommand &command, const std::string &mainFile,
                                      llvm::StringRef contents, const Preamble *failed = nullptr);

  /// `args` (file last) parsing with `preamble`.
  static std::vector<std::string> argsWith(const std::vector<std::string> &args,
                                           const Preamble &preamble);

  /// The first problem with the cache directory, once; empty otherwise.
  std::string takeNote();

  /// What this process learnt that another would repeat: the keys whose
  /// include prefix does not compile, and whether the directory is unusable.
  std::vector<std::string> failedKeys();
  bool unusable();
  /// Takes over what a forked child learnt (failedKeys(), unusable() and the
  /// note it reported), so that the next child does not try again.
  void adopt(const std::vector<std::string> &failedKeys, bool unusable, const std::string &note);

  std::atomic<unsigned> hits{0}, builds{0}, buildFailures{0};
  std::atomic<unsigned> evictedEntries{0};
  std::atomic<uint64_t> evictedBytes{0};

private:
  /// Builds the PCH of `command`'s input (to be stored as `pch`) into memory.
  bool buildPch(const FileCommand &command, const std::string &pch, BuiltPch &output);
  std::shared_ptr<std::mutex> lockFor(const std::string &key);
  void noteProblem(const std::string &problem);
  std::shared_ptr<void> markInUse(const std::string &key);
  /// Deletes least recently used entries until the cache fits in maxBytes_.
  void evictOverLimit();

  std::string directory_;
  uint64_t maxBytes_;
  std::mutex evictionMutex_;
  std::map<std::string, unsigned> inUse_; ///< live Preambles per key
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<std::mutex>> keyLocks_;
  std::map<std::string, unsigned> generations_; ///< builds per key in this process
  std::set<std::string> failedKeys_;            ///< prefixes that do not compile: not retried
  bool unusable_ = false;
  std::string note_;
  bool noteTaken_ = false;
};

} // namespace gradlint
