#include "driver/cache/ResultCache.h"

#include "driver/analysis/AnalysisJson.h"
#include "driver/fix/AtomicWrite.h"
#include "driver/output/Output.h"

#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>

extern char **environ;

namespace gradlint {

namespace {

using Json = nlohmann::json;

/// A file's size and the xxh3 hash of its bytes, or -1, 0 when it cannot be
/// read (a placeholder the API model served, which must still be missing).
std::pair<int64_t, uint64_t> contentFingerprint(const std::string &path) {
  auto contents = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
  if (!contents)
    return {-1, 0};
  llvm::StringRef bytes = contents.get()->getBuffer();
  return {int64_t(bytes.size()), llvm::xxh3_64bits(bytes)};
}

/// This binary: a rebuilt gradlint (same version, other code) gets new keys.
std::string binaryIdentity() {
  std::string self = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(self, status))
    return self;
  return self + "\n" + std::to_string(status.getSize()) + "\n" +
         std::to_string(std::chrono::duration_cast<std::chrono::nanoseconds>(
                            status.getLastModificationTime().time_since_epoch())
                            .count());
}

} // namespace

std::pair<int64_t, uint64_t> ResultCache::fingerprintOf(const std::string &file) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto known = fingerprints_.find(file); known != fingerprints_.end())
      return known->second;
  }
  std::pair<int64_t, uint64_t> fingerprint = contentFingerprint(file);
  std::lock_guard<std::mutex> lock(mutex_);
  fingerprints_[file] = fingerprint;
  return fingerprint;
}

bool cacheableAnalysis(const FileAnalysis &analysis) {
  return !analysis.analysisFailed && !analysis.skipped &&
         std::all_of(analysis.filesRead.begin(), analysis.filesRead.end(),
                     [](const std::string &file) { return llvm::sys::path::is_absolute(file); });
}

std::string ResultCache::keyFor(const std::string &file, const std::string &encodedCommand,
                                const std::string &configuration,
                                const AnalysisRequest &request) const {
  auto contents = llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
  if (!contents)
    return "";
  static const std::string binary = binaryIdentity();
  std::string environment;
  std::vector<std::string> variables;
  for (char **entry = environ; *entry; ++entry)
    if (llvm::StringRef(*entry).starts_with("GRADLINT_"))
      variables.push_back(*entry);
  std::sort(variables.begin(), variables.end());
  for (const std::string &variable : variables)
    environment += variable + '\n';
  Json parts = {"gradlint analysis result 1",
                GRADLINT_VERSION,
                binary,
                file,
                hexDigest(contents.get()->getBuffer().str(), 32),
                encodedCommand,
                configuration,
                {request.dumpModel, request.lowerDiagnosed, request.lowerEveryLoop,
                 request.translateEveryLoop},
                environment};
  return hexDigest(parts.dump(), 20);
}

std::optional<FileAnalysis> ResultCache::lookup(const std::string &key) {
  llvm::SmallString<256> path(directory_);
  llvm::sys::path::append(path, key + ".cbor");
  auto bytes = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!bytes) {
    ++misses;
    return std::nullopt;
  }
  // A damaged entry is a miss: the next store replaces it.
  Json entry = Json::from_cbor(bytes.get()->getBuffer().begin(), bytes.get()->getBuffer().end(),
                               /*strict=*/true, /*allow_exceptions=*/false);
  FileAnalysis analysis;
  bool valid = entry.is_object() && entry.contains("files") && entry["files"].is_array() &&
               entry.contains("analysis") && entry["analysis"].is_binary();
  if (valid)
    for (const Json &file : entry["files"]) {
      valid = file.is_array() && file.size() == 3 && file[0].is_string() &&
              file[1].is_number_integer() && file[2].is_number_unsigned() &&
              fingerprintOf(file[0].get<std::string>()) ==
                  std::make_pair(file[1].get<int64_t>(), file[2].get<uint64_t>());
      if (!valid)
        break;
    }
  if (valid) {
    const auto &encoded = entry["analysis"].get_binary();
    valid = !decodeAnalysis(std::vector<std::uint8_t>(encoded.begin(), encoded.end()), analysis);
  }
  if (!valid) {
    ++misses;
    return std::nullopt;
  }
  // This run built and reused no preamble for it.
  analysis.childCacheUse = {};
  analysis.preambleUse = {};
  ++hits;
  return analysis;
}

void ResultCache::store(const std::string &key, const FileAnalysis &analysis) {
  if (!cacheableAnalysis(analysis))
    return;
  Json files = Json::array();
  // The preamble cache's own files (the include prefix as a header, its PCH)
  // follow from the main file, which the key covers; they come and go.
  std::string cacheRoot = llvm::sys::path::parent_path(directory_).str() + "/";
  for (const std::string &file : analysis.filesRead) {
    if (llvm::StringRef(file).starts_with(cacheRoot))
      continue;
    auto [size, hash] = fingerprintOf(file);
    files.push_back({file, size, hash});
  }
  Json entry = {{"files", files}, {"analysis", Json::binary(encodeAnalysis(analysis))}};
  std::vector<std::uint8_t> bytes = Json::to_cbor(entry);
  if (llvm::sys::fs::create_directories(directory_))
    return;
  llvm::SmallString<256> path(directory_);
  llvm::sys::path::append(path, key + ".cbor");
  (void)writeFileAtomically(std::string(path), std::string(bytes.begin(), bytes.end()),
                            "a cached analysis");
}

} // namespace gradlint
