#include "driver/cache/StatSignature.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <ctime>
#include <sys/stat.h>

namespace gradlint {

namespace {

int64_t nanoseconds(const struct timespec &time) {
  return static_cast<int64_t>(time.tv_sec) * 1000000000 + time.tv_nsec;
}

} // namespace

int64_t realtimeNs() {
  struct timespec now;
  ::clock_gettime(CLOCK_REALTIME, &now);
  return nanoseconds(now);
}

std::string statSignature(llvm::StringRef path, llvm::StringRef directory, int64_t beforeNs) {
  llvm::SmallString<256> absolute(path);
  if (!llvm::sys::path::is_absolute(absolute) && !directory.empty()) {
    absolute = directory;
    llvm::sys::path::append(absolute, path);
  }
  struct stat status;
  if (::stat(absolute.c_str(), &status) != 0 || !S_ISREG(status.st_mode))
    return "=";
  int64_t margin = status.st_ctim.tv_nsec != 0 ? 100000000 : 2000000000;
  if (nanoseconds(status.st_ctim) >= beforeNs - margin)
    return "=";
  return std::to_string(status.st_size) + "." + std::to_string(nanoseconds(status.st_mtim)) + "." +
         std::to_string(nanoseconds(status.st_ctim)) + "." + std::to_string(status.st_ino);
}

} // namespace gradlint
