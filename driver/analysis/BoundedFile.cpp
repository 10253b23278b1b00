#include "driver/analysis/BoundedFile.h"

#include "llvm/Support/FileSystem.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gradlint {

namespace {

std::string kindOf(mode_t mode) {
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  if (S_ISDIR(mode))
    return "a directory";
  return "a special file";
}

std::string mebibytes(uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

/// The problem with a file of this status, if any.
std::optional<BoundedReadFailure> judge(const struct stat &status, uint64_t maxBytes,
                                        const char *what) {
  if (!S_ISREG(status.st_mode))
    return BoundedReadFailure{{}, "not a regular file (it is " + kindOf(status.st_mode) + ")"};
  if (static_cast<uint64_t>(status.st_size) > maxBytes)
    return BoundedReadFailure{{},
                              "too large (" + std::to_string(status.st_size) + " bytes; " + what +
                                  " is read only up to " + mebibytes(maxBytes) + ")"};
  return std::nullopt;
}

} // namespace

std::optional<BoundedReadFailure> checkBoundedFile(const std::string &path, uint64_t maxBytes,
                                                   const char *what) {
  struct stat status;
  if (::stat(path.c_str(), &status) != 0)
    return std::nullopt;
  return judge(status, maxBytes, what);
}

std::optional<BoundedReadFailure> readBoundedFile(const std::string &path, uint64_t maxBytes,
                                                  const char *what,
                                                  std::unique_ptr<llvm::MemoryBuffer> &out,
                                                  bool requiresNullTerminator) {
  struct stat status;
  if (::stat(path.c_str(), &status) != 0)
    return BoundedReadFailure{std::error_code(errno, std::generic_category()), ""};
  if (auto problem = judge(status, maxBytes, what))
    return problem;
  int fd;
  do
    fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0)
    return BoundedReadFailure{std::error_code(errno, std::generic_category()), ""};
  // The file may have been replaced between stat and open.
  if (::fstat(fd, &status) != 0) {
    std::error_code error(errno, std::generic_category());
    ::close(fd);
    return BoundedReadFailure{error, ""};
  }
  if (auto problem = judge(status, maxBytes, what)) {
    ::close(fd);
    return problem;
  }
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0)
    ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  // Exactly the size fstat saw, copied rather than mapped: a file truncated
  // while mapped would kill this process with SIGBUS.
  auto buffer = llvm::MemoryBuffer::getOpenFile(llvm::sys::fs::convertFDToNativeFile(fd), path,
                                                static_cast<uint64_t>(status.st_size),
                                                requiresNullTerminator, /*IsVolatile=*/true);
  ::close(fd);
  if (!buffer)
    return BoundedReadFailure{buffer.getError(), ""};
  out = std::move(*buffer);
  return std::nullopt;
}

} // namespace gradlint
