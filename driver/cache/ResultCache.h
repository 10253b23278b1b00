// Analyses of unchanged files, kept between runs, so that re-linting an
// unchanged project costs a hash of each file instead of a parse.
#pragma once

#include "driver/analysis/Analyzer.h"

#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace gradlint {

/// An entry's key hashes everything the analysis was given: this gradlint
/// binary, the file's bytes, its compile command, its configuration, what was
/// asked, and gradlint's environment variables. The entry lists every other
/// file the parse read (headers, the API model), each with its size and a hash
/// of its bytes (a header rewritten within its timestamp's resolution is still
/// seen); any change is a miss. A header read by several files of a run is
/// hashed once.
/// Entries are files <directory>/<key>.cbor, written whole or not at all.
class ResultCache {
public:
  /// `directory`: inside the preamble cache's, whose files an entry ignores.
  explicit ResultCache(std::string directory) : directory_(std::move(directory)) {}

  /// The key of analysing `file` (absolute); "" when the file cannot be read.
  std::string keyFor(const std::string &file, const std::string &encodedCommand,
                     const std::string &configuration, const AnalysisRequest &request) const;
  /// The stored analysis of `key`, if its files are unchanged.
  std::optional<FileAnalysis> lookup(const std::string &key);
  /// Keeps `analysis` (one that did not fail) for `key`; a failure to write
  /// costs the next run a parse, nothing else.
  void store(const std::string &key, const FileAnalysis &analysis);

  std::atomic<unsigned> hits{0}, misses{0};

private:
  std::pair<int64_t, uint64_t> fingerprintOf(const std::string &file);

  std::string directory_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::pair<int64_t, uint64_t>> fingerprints_;
};

/// Whether an analysis may be kept: it finished (no crash, time or memory
/// limit) and read only files it could name.
bool cacheableAnalysis(const FileAnalysis &analysis);

} // namespace gradlint
