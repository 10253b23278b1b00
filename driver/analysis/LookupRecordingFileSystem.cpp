#include "driver/analysis/LookupRecordingFileSystem.h"

#include "llvm/Support/Path.h"

#include <sys/stat.h>

namespace gradlint {

void LookupRecordingFileSystem::recordAbsent(const llvm::Twine &path) {
  llvm::SmallString<256> absolute;
  path.toVector(absolute);
  if (absolute.empty())
    return;
  // Relative to the parse's working directory, which the cache key covers.
  if (makeAbsolute(absolute))
    return;
  // ".." stays: the kernel resolves it after symlinks, a lexical removal does
  // not (/lib/gcc/../../../../include is not /include where /lib is a link).
  llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/false);
  absent_.insert(std::string(absolute));
}

llvm::ErrorOr<llvm::vfs::Status> LookupRecordingFileSystem::status(const llvm::Twine &path) {
  auto result = ProxyFileSystem::status(path);
  if (!result)
    recordAbsent(path);
  return result;
}

llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>>
LookupRecordingFileSystem::openFileForRead(const llvm::Twine &path) {
  auto result = ProxyFileSystem::openFileForRead(path);
  if (!result)
    recordAbsent(path);
  return result;
}

bool LookupRecordingFileSystem::exists(const llvm::Twine &path) {
  bool found = ProxyFileSystem::exists(path);
  if (!found)
    recordAbsent(path);
  return found;
}

bool stillAbsent(const std::string &path) {
  struct stat status;
  return ::stat(path.c_str(), &status) != 0;
}

} // namespace gradlint
