// Analyses of unchanged files, kept between runs, so that re-linting an
// unchanged project costs a hash of each file and a stat of each path the
// compiler did not find, instead of a parse.
#pragma once

#include "driver/analysis/Analyzer.h"

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gradlint {

/// An entry's key hashes everything the analysis was given: this gradlint
/// build (the build ids of the executable and of every library it loaded),
/// the file's bytes, its compile command, its configuration, what was asked,
/// and gradlint's environment variables. The entry lists every other file the
/// parse read (headers, the API model), each with its size and a hash of its
/// bytes (a header rewritten within its timestamp's resolution is still
/// seen), and every path the parse looked up and did not find (a header
/// created earlier on the include path, or one installed since, is seen);
/// any change is a miss. A header read by several files of a run is hashed
/// once, and each absent path stat'ed once.
/// Entries are files <directory>/<key>.cbor, written whole or not at all;
/// <directory>/latest/<hash of the file's path> keeps the parts of the key
/// the file was last stored under, so that a miss can say what changed.
class ResultCache {
public:
  /// `directory`: inside the preamble cache's, whose files an entry ignores.
  explicit ResultCache(std::string directory);

  struct Key {
    std::string file;   ///< absolute
    std::string digest; ///< the entry's name; empty: not cacheable
    /// Each part of the key by name, hashed: what a miss compares.
    std::vector<std::pair<std::string, std::string>> parts;
  };

  /// The key of analysing `file` (absolute); an empty digest when the file
  /// cannot be read.
  Key keyFor(const std::string &file, const std::string &encodedCommand,
             const std::string &configuration, const AnalysisRequest &request) const;
  /// The stored analysis of `key`, if its files are unchanged and its absent
  /// paths still absent. `reason` says why it was reused or not.
  std::optional<FileAnalysis> lookup(const Key &key, std::string &reason);
  /// Keeps `analysis` (one cacheableAnalysis() accepts) for `key`; a failure
  /// to write costs the next run a parse, nothing else.
  void store(const Key &key, const FileAnalysis &analysis);

  std::atomic<unsigned> hits{0}, misses{0};
  std::atomic<unsigned> pathsChecked{0}; ///< files stat'ed or hashed, absent paths stat'ed
  std::atomic<uint64_t> lookupMicros{0}; ///< time in lookup(), all threads together

private:
  std::pair<int64_t, uint64_t> fingerprintOf(const std::string &file);
  /// statSignature() of `file` now, once per run.
  std::string signatureInRun(const std::string &file);
  bool stillAbsentInRun(const std::string &path);
  /// Why no entry exists for `key`: the parts that differ from the file's last store.
  std::string whyNoEntry(const Key &key);

  std::string directory_;
  int64_t startedNs_; ///< when this run began: a file changed since gets no signature
  std::mutex mutex_;
  std::unordered_map<std::string, std::string> signatures_;
  std::unordered_map<std::string, std::pair<int64_t, uint64_t>> fingerprints_;
  std::unordered_map<std::string, bool> absent_;
};

/// Whether an analysis may be kept: it finished (no crash, time or memory
/// limit), read only files it could name, and, when it has errors, its
/// inputs were recorded (a "file not found" is kept only with the paths
/// that were searched).
bool cacheableAnalysis(const FileAnalysis &analysis);

/// This gradlint build: the executable's and each loaded library's build id
/// (or, for one without, its path, size and modification time).
std::string buildIdentity();

} // namespace gradlint
