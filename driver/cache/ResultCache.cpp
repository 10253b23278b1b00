#include "driver/cache/ResultCache.h"

#include "driver/analysis/AnalysisJson.h"
#include "driver/analysis/CompilationSetup.h"
#include "driver/analysis/LookupRecordingFileSystem.h"
#include "driver/cache/StatSignature.h"
#include "driver/fix/AtomicWrite.h"
#include "driver/output/Output.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <elf.h>
#include <link.h>

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

/// The GNU build id in a loaded object's note segments, as hex; empty if none.
std::string buildIdOf(const struct dl_phdr_info &object) {
  for (int i = 0; i < object.dlpi_phnum; ++i) {
    const ElfW(Phdr) &segment = object.dlpi_phdr[i];
    if (segment.p_type != PT_NOTE)
      continue;
    const char *at = reinterpret_cast<const char *>(object.dlpi_addr + segment.p_vaddr);
    const char *end = at + segment.p_memsz;
    auto aligned = [](size_t size) { return (size + 3) & ~size_t(3); };
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      const auto *note = reinterpret_cast<const ElfW(Nhdr) *>(at);
      const char *name = at + sizeof(ElfW(Nhdr));
      const char *descriptor = name + aligned(note->n_namesz);
      if (descriptor + note->n_descsz > end)
        break;
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0)
        return llvm::toHex(llvm::StringRef(descriptor, note->n_descsz), /*LowerCase=*/true);
      at = descriptor + aligned(note->n_descsz);
    }
  }
  return "";
}

/// Path, size and modification time: an object without a build id.
std::string fileIdentity(const std::string &path) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status))
    return path;
  return path + " " + std::to_string(status.getSize()) + " " +
         std::to_string(std::chrono::duration_cast<std::chrono::nanoseconds>(
                            status.getLastModificationTime().time_since_epoch())
                            .count());
}

} // namespace

std::string buildIdentity() {
  std::vector<std::string> objects;
  dl_iterate_phdr(
      [](struct dl_phdr_info *object, size_t, void *out) {
        auto &objects = *static_cast<std::vector<std::string> *>(out);
        // The executable has no name here; the vDSO has no file.
        std::string name = object->dlpi_name && *object->dlpi_name ? object->dlpi_name
                           : objects.empty() ? llvm::sys::fs::getMainExecutable(nullptr, nullptr)
                                             : "";
        std::string id = buildIdOf(*object);
        if (!id.empty())
          objects.push_back(llvm::sys::path::filename(name).str() + " " + id);
        else if (!name.empty() && llvm::sys::fs::exists(name))
          objects.push_back(fileIdentity(name));
        return 0;
      },
      &objects);
  std::string identity;
  for (const std::string &object : objects)
    identity += object + "\n";
  return identity;
}

ResultCache::ResultCache(std::string directory)
    : directory_(std::move(directory)), startedNs_(realtimeNs()) {}

/// The NUL-terminated fields of `bytes`; a last field without its NUL is dropped.
std::vector<llvm::StringRef> nulTerminatedFields(const std::vector<std::uint8_t> &bytes) {
  std::vector<llvm::StringRef> fields;
  llvm::StringRef rest(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  for (size_t end = rest.find('\0'); end != llvm::StringRef::npos; end = rest.find('\0')) {
    fields.push_back(rest.take_front(end));
    rest = rest.drop_front(end + 1);
  }
  return fields;
}

/// The signature of a file the API model made up for a LibTorch header it does
/// not have: its text follows from its name and the gradlint build (in the key).
constexpr const char *kPlaceholder = "placeholder";

std::string ResultCache::signatureInRun(const std::string &file) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto known = signatures_.find(file); known != signatures_.end())
      return known->second;
  }
  std::string signature = statSignature(file, "", realtimeNs());
  ++pathsChecked;
  std::lock_guard<std::mutex> lock(mutex_);
  signatures_[file] = signature;
  return signature;
}

std::pair<int64_t, uint64_t> ResultCache::fingerprintOf(const std::string &file) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto known = fingerprints_.find(file); known != fingerprints_.end())
      return known->second;
  }
  std::pair<int64_t, uint64_t> fingerprint = contentFingerprint(file);
  ++pathsChecked;
  std::lock_guard<std::mutex> lock(mutex_);
  fingerprints_[file] = fingerprint;
  return fingerprint;
}

bool ResultCache::stillAbsentInRun(const std::string &path) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto known = absent_.find(path); known != absent_.end())
      return known->second;
  }
  bool absent = stillAbsent(path);
  ++pathsChecked;
  std::lock_guard<std::mutex> lock(mutex_);
  absent_[path] = absent;
  return absent;
}

bool cacheableAnalysis(const FileAnalysis &analysis) {
  auto absolute = [](const std::string &file) { return llvm::sys::path::is_absolute(file); };
  return !analysis.analysisFailed && !analysis.skipped &&
         (analysis.errors.empty() || analysis.inputsRecorded) &&
         std::all_of(analysis.filesRead.begin(), analysis.filesRead.end(), absolute) &&
         std::all_of(analysis.filesAbsent.begin(), analysis.filesAbsent.end(), absolute);
}

ResultCache::Key ResultCache::keyFor(const std::string &file, const std::string &encodedCommand,
                                     const std::string &configuration,
                                     const AnalysisRequest &request) const {
  Key key{file, "", {}};
  auto contents = llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
  if (!contents)
    return key;
  static const std::string build = buildIdentity();
  std::string environment;
  std::vector<std::string> variables;
  for (char **entry = environ; *entry; ++entry)
    if (llvm::StringRef(*entry).starts_with("GRADLINT_"))
      variables.push_back(*entry);
  std::sort(variables.begin(), variables.end());
  for (const std::string &variable : variables)
    environment += variable + '\n';
  Json requested = {request.dumpModel, request.translateDiagnosed, request.runEveryLoop,
                    request.translateEveryLoop, request.loopRunSetting};
  // Named as a miss's reason names them ("<part> changed").
  std::pair<const char *, std::string> parts[] = {
      {"the gradlint build", std::string(GRADLINT_VERSION) + "\n" + build},
      {"the file's contents", contents.get()->getBuffer().str()},
      {"the compile command", encodedCommand},
      {"the configuration", configuration},
      {"the requested output", requested.dump()},
      {"the GRADLINT_* environment", environment}};
  Json all = Json::array({"gradlint analysis result 2", file});
  for (const auto &[name, value] : parts) {
    key.parts.push_back({name, hexDigest(value, 16)});
    all.push_back(key.parts.back().second);
  }
  key.digest = hexDigest(all.dump(), 20);
  return key;
}

namespace {

std::string latestPath(const std::string &directory, const std::string &file) {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, "latest", hexDigest(file, 20) + ".json");
  return std::string(path);
}

} // namespace

std::string ResultCache::whyNoEntry(const Key &key) {
  auto bytes = llvm::MemoryBuffer::getFile(latestPath(directory_, key.file));
  if (!bytes)
    return "no entry: the file was not analysed with this cache before";
  Json latest = Json::parse(bytes.get()->getBuffer(), nullptr, /*allow_exceptions=*/false);
  std::vector<std::string> changed;
  for (const auto &[name, digest] : key.parts)
    if (!latest.is_object() || !latest.contains(name) || latest[name] != digest)
      changed.push_back(name);
  if (changed.empty())
    return "no entry: its entry was removed";
  std::string reason = "no entry: since the last analysis, ";
  for (size_t i = 0; i < changed.size(); ++i)
    reason += (i == 0 ? "" : i + 1 == changed.size() ? " and " : ", ") + changed[i];
  return reason + " changed";
}

std::optional<FileAnalysis> ResultCache::lookup(const Key &key, std::string &reason) {
  // The cost of the entries' checks, for --verbose and the benchmark.
  struct Timer {
    std::atomic<uint64_t> &total;
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
    ~Timer() {
      total += std::chrono::duration_cast<std::chrono::microseconds>(
                   std::chrono::steady_clock::now() - started)
                   .count();
    }
  } timer{lookupMicros};
  llvm::SmallString<256> path(directory_);
  llvm::sys::path::append(path, key.digest + ".cbor");
  auto bytes = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!bytes) {
    ++misses;
    reason = whyNoEntry(key);
    return std::nullopt;
  }
  // A damaged entry is a miss: the next store replaces it.
  Json entry = Json::from_cbor(bytes.get()->getBuffer().begin(), bytes.get()->getBuffer().end(),
                               /*strict=*/true, /*allow_exceptions=*/false);
  FileAnalysis analysis;
  reason.clear();
  bool valid = entry.is_object() && entry.contains("files") && entry["files"].is_binary() &&
               entry.contains("absent") && entry["absent"].is_binary() &&
               entry.contains("analysis") && entry["analysis"].is_binary();
  std::vector<llvm::StringRef> fileFields, absentPaths;
  if (valid) {
    fileFields = nulTerminatedFields(entry["files"].get_binary());
    absentPaths = nulTerminatedFields(entry["absent"].get_binary());
    valid = fileFields.size() % 4 == 0;
  }
  if (!valid)
    reason = "its entry is damaged";
  size_t hashed = 0; // files whose status signature changed
  for (size_t i = 0; valid && i < fileFields.size(); i += 4) {
    std::string file = fileFields[i].str();
    llvm::StringRef signature = fileFields[i + 3];
    int64_t size;
    uint64_t hash;
    valid = !fileFields[i + 1].getAsInteger(10, size) && !fileFields[i + 2].getAsInteger(10, hash);
    if (!valid)
      reason = "its entry is damaged";
    // An unchanged status signature: the same bytes, not read again. A
    // placeholder of the API model is the same while no real file replaces it.
    else if (signature == kPlaceholder ? stillAbsentInRun(file)
                                       : signature != "=" && signatureInRun(file) == signature)
      continue;
    else if (++hashed; fingerprintOf(file) != std::make_pair(size, hash)) {
      valid = false;
      reason = file + (size < 0 ? " exists now" : " changed");
    }
  }
  for (size_t i = 0; valid && i < absentPaths.size(); ++i)
    if (!stillAbsentInRun(absentPaths[i].str())) {
      valid = false;
      reason = absentPaths[i].str() + " exists now (the compiler did not find it before)";
    }
  if (valid) {
    const auto &encoded = entry["analysis"].get_binary();
    valid = !decodeAnalysis(std::vector<std::uint8_t>(encoded.begin(), encoded.end()), analysis);
    if (!valid)
      reason = "its entry is damaged";
  }
  if (!valid) {
    ++misses;
    return std::nullopt;
  }
  reason = "reused: " + std::to_string(fileFields.size() / 4) + " files unchanged (" +
           std::to_string(hashed) + " hashed, the rest by status), " +
           std::to_string(absentPaths.size()) + " paths still absent";
  // This run built and reused no preamble for it.
  analysis.childCacheUse = {};
  analysis.preambleUse = {};
  ++hits;
  return analysis;
}

void ResultCache::store(const Key &key, const FileAnalysis &analysis) {
  if (key.digest.empty() || !cacheableAnalysis(analysis))
    return;
  // NUL-terminated fields in one byte string each: thousands of headers per
  // entry decode in a fraction of the time a CBOR array of arrays takes.
  std::string files, absent;
  // The preamble cache's own files (the include prefix as a header, its PCH)
  // follow from the main file, which the key covers; they come and go.
  std::string cacheRoot = llvm::sys::path::parent_path(directory_).str() + "/";
  std::string apiModelRoot = CompilationSetup::apiModelDir() + "/";
  for (const std::string &file : analysis.filesRead) {
    if (llvm::StringRef(file).starts_with(cacheRoot))
      continue;
    auto [size, hash] = fingerprintOf(file);
    std::string signature = statSignature(file, "", startedNs_);
    if (signature == "=" && llvm::StringRef(file).starts_with(apiModelRoot) && stillAbsent(file))
      signature = kPlaceholder;
    for (const std::string &field : {file, std::to_string(size), std::to_string(hash), signature})
      files.append(field).push_back('\0');
  }
  for (const std::string &path : analysis.filesAbsent)
    if (!llvm::StringRef(path).starts_with(cacheRoot))
      absent.append(path).push_back('\0');
  Json entry = {{"files", Json::binary(std::vector<std::uint8_t>(files.begin(), files.end()))},
                {"absent", Json::binary(std::vector<std::uint8_t>(absent.begin(), absent.end()))},
                {"analysis", Json::binary(encodeAnalysis(analysis))}};
  std::vector<std::uint8_t> bytes = Json::to_cbor(entry);
  if (llvm::sys::fs::create_directories(directory_ + "/latest"))
    return;
  llvm::SmallString<256> path(directory_);
  llvm::sys::path::append(path, key.digest + ".cbor");
  (void)writeFileAtomically(std::string(path), std::string(bytes.begin(), bytes.end()),
                            "a cached analysis");
  Json parts = Json::object();
  for (const auto &[name, digest] : key.parts)
    parts[name] = digest;
  (void)writeFileAtomically(latestPath(directory_, key.file), parts.dump() + "\n",
                            "a cached analysis's key");
}

} // namespace gradlint
