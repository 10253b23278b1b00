#include "driver/analysis/ApiModelFileSystem.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace gradlint {

namespace {

/// The top-level folders of LibTorch's public include paths.
bool isLibTorchRoot(llvm::StringRef component) {
  return component == "torch" || component == "ATen" || component == "c10" || component == "c10d" ||
         component == "caffe2";
}

} // namespace

ApiModelFileSystem::ApiModelFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base,
                                       std::string modelDir)
    : ProxyFileSystem(std::move(base)),
      placeholders_(llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>()) {
  llvm::SmallString<256> normalized(modelDir);
  llvm::sys::path::remove_dots(normalized, true);
  modelDir_ = std::string(normalized);
}

std::string ApiModelFileSystem::missingModelPath(const llvm::Twine &path) {
  llvm::SmallString<256> full;
  path.toVector(full);
  if (!llvm::sys::path::is_absolute(full)) {
    auto cwd = getCurrentWorkingDirectory();
    if (!cwd)
      return "";
    llvm::SmallString<256> joined(*cwd);
    llvm::sys::path::append(joined, full);
    full = joined;
  }
  llvm::sys::path::remove_dots(full, true);
  llvm::StringRef rest = full;
  if (!rest.consume_front(modelDir_) || !rest.consume_front("/"))
    return "";
  if (!isLibTorchRoot(rest.split('/').first) || getUnderlyingFS().exists(full))
    return "";
  return rest.str();
}

llvm::ErrorOr<llvm::vfs::Status> ApiModelFileSystem::status(const llvm::Twine &path) {
  std::string missing = missingModelPath(path);
  if (missing.empty())
    return ProxyFileSystem::status(path);
  std::string name = path.str();
  // Header search stats a header's folder before the header itself; a name
  // without an extension is taken as a folder (LibTorch's headers all have one).
  if (llvm::sys::path::extension(missing).empty()) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto id = folderIds_.try_emplace(missing, llvm::vfs::getNextVirtualUniqueID()).first->second;
    return llvm::vfs::Status(name, id, llvm::sys::TimePoint<>(), 0, 0, 0,
                             llvm::sys::fs::file_type::directory_file,
                             llvm::sys::fs::perms::all_read | llvm::sys::fs::perms::all_exe);
  }
  auto opened = openFileForRead(path);
  if (!opened)
    return opened.getError();
  auto placeholder = (*opened)->status();
  if (!placeholder)
    return placeholder.getError();
  return llvm::vfs::Status::copyWithNewName(*placeholder, name);
}

llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
ApiModelFileSystem::openFileForRead(const llvm::Twine &path) {
  std::string missing = missingModelPath(path);
  if (missing.empty() || llvm::sys::path::extension(missing).empty())
    return ProxyFileSystem::openFileForRead(path);
  llvm::SmallString<256> key(modelDir_);
  llvm::sys::path::append(key, missing);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (served_.insert(missing).second)
      placeholders_->addFile(key, 0,
                             llvm::MemoryBuffer::getMemBufferCopy(
                                 "// gradlint: the API model has no <" + missing + ">\n", key));
  }
  return placeholders_->openFileForRead(key);
}

std::set<std::string> ApiModelFileSystem::servedHeaders() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return served_;
}

llvm::IntrusiveRefCntPtr<ApiModelFileSystem>
makeApiModelFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base,
                       const std::string &modelDir) {
  return llvm::makeIntrusiveRefCnt<ApiModelFileSystem>(std::move(base), modelDir);
}

} // namespace gradlint
