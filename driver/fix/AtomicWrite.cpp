#include "driver/fix/AtomicWrite.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace gradlint {

namespace {

std::string lastError() { return std::strerror(errno); }

/// Writes all of `data` at `offset` of `fd`; false (errno set) on failure.
bool writeAll(int fd, const std::string &data, off_t offset) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t wrote = ::pwrite(fd, data.data() + done, data.size() - done, offset + done);
    if (wrote < 0 && errno == EINTR)
      continue;
    if (wrote <= 0) {
      if (wrote == 0)
        errno = EIO;
      return false;
    }
    done += static_cast<size_t>(wrote);
  }
  return true;
}

bool syncFile(int fd) {
  while (::fsync(fd) != 0)
    if (errno != EINTR)
      return false;
  return true;
}

/// fsync of the directory holding `path`, so that a rename into it survives a
/// crash. Best effort: the rename is done and the file complete either way
/// (some file systems do not sync directories).
void syncDirectoryOf(const std::string &path) {
  std::string directory(llvm::sys::path::parent_path(path));
  if (directory.empty())
    directory = ".";
  int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return;
  syncFile(fd);
  ::close(fd);
}

/// A new, empty temporary file beside `path` (a rename is atomic within a
/// directory), hidden and named as gradlint's, since a run killed midway can
/// leave it behind. Mode 0600 until the caller sets the final one.
int createTemporaryBeside(const std::string &path, std::string &temporary) {
  std::string directory(llvm::sys::path::parent_path(path));
  std::string pattern = (directory.empty() ? "" : directory + "/") + "." +
                        std::string(llvm::sys::path::filename(path)) + ".gradlint-tmp-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd >= 0)
    temporary = name.data();
  return fd;
}

} // namespace

std::optional<std::string> writeFileAtomically(const std::string &path, const std::string &contents,
                                               const std::string &what) {
  std::string failure = "cannot write " + what + ": ";
  // Named as --fix's temporary files are; created with the permissions a new
  // file gets (0666 less the umask).
  llvm::SmallString<256> pattern(llvm::sys::path::parent_path(path));
  llvm::sys::path::append(pattern, "." + std::string(llvm::sys::path::filename(path)) +
                                       ".gradlint-tmp-%%%%%%");
  llvm::SmallString<256> created;
  int fd = -1;
  if (std::error_code error = llvm::sys::fs::createUniqueFile(pattern, fd, created))
    return failure + error.message();
  std::string temporary(created);
  bool ok = writeAll(fd, contents, 0) && syncFile(fd);
  std::string why = ok ? "" : lastError();
  if (::close(fd) != 0 && ok) {
    ok = false;
    why = lastError();
  }
  if (ok && ::rename(temporary.c_str(), path.c_str()) != 0) {
    ok = false;
    why = lastError();
  }
  if (!ok) {
    ::unlink(temporary.c_str());
    return failure + why;
  }
  syncDirectoryOf(path);
  return std::nullopt;
}

LockedFile::~LockedFile() {
  if (fd_ >= 0)
    ::close(fd_); // releases the lock
}

std::optional<std::string> LockedFile::open(const std::string &path) {
  const std::string cannotRead = "cannot read the file to fix: ";
  const std::string cannotWrite = "cannot write the fixed file: ";
  // The file replaced (by a rename) while this waited for its lock: open the
  // new one. A few rounds at most, unless something keeps replacing it.
  for (int attempt = 0; attempt < 100; ++attempt) {
    // Through symbolic links: the real file is rewritten, the links stay.
    char resolved[PATH_MAX];
    if (!::realpath(path.c_str(), resolved))
      return cannotRead + lastError();
    realPath_ = resolved;
    struct stat before;
    if (::stat(resolved, &before) != 0)
      return cannotRead + lastError();
    if (!S_ISREG(before.st_mode))
      return cannotWrite + "not a regular file";
    // Read-only for everybody: refused even for root, who could write it.
    if ((before.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0)
      return cannotWrite + "the file is read-only";
    // What the invoking user may do (their effective ids and groups), not the
    // owner's write bit: in a world-writable directory a user could otherwise
    // replace a file they may not write.
    if (::faccessat(AT_FDCWD, resolved, W_OK, AT_EACCESS) != 0)
      return cannotWrite + (errno == EACCES || errno == EPERM
                                ? "you do not have permission to write it"
                                : lastError());
    int fd = ::open(resolved, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
      if (errno == ELOOP) // became a symbolic link meanwhile: resolve it again
        continue;
      return cannotWrite +
             (errno == EACCES ? "you do not have permission to write it" : lastError());
    }
    // The lock: another gradlint --fix holding it is writing this file; it is
    // quick, so wait (a minute at most, in case something else holds it).
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    bool locked = false;
    while (true) {
      if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
        locked = true;
        break;
      }
      if (errno != EWOULDBLOCK && errno != EINTR)
        break;
      if (std::chrono::steady_clock::now() > deadline) {
        errno = EWOULDBLOCK;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (!locked) {
      std::string why = errno == EWOULDBLOCK ? "another process holds a lock on it" : lastError();
      ::close(fd);
      return cannotWrite + why;
    }
    // Still the file the path names? Another run may have renamed its fixed
    // version over it while this one waited.
    struct stat now;
    if (::fstat(fd, &status_) != 0) {
      std::string why = lastError();
      ::close(fd);
      return cannotRead + why;
    }
    if (::stat(resolved, &now) != 0 || now.st_dev != status_.st_dev ||
        now.st_ino != status_.st_ino || status_.st_nlink == 0) {
      ::close(fd);
      continue;
    }
    if (!S_ISREG(status_.st_mode)) {
      ::close(fd);
      return cannotWrite + "not a regular file";
    }
    // Read under the lock.
    contents_.clear();
    char buffer[65536];
    off_t offset = 0;
    while (true) {
      ssize_t got = ::pread(fd, buffer, sizeof buffer, offset);
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0) {
        std::string why = lastError();
        ::close(fd);
        return cannotRead + why;
      }
      if (got == 0)
        break;
      contents_.append(buffer, static_cast<size_t>(got));
      offset += got;
    }
    fd_ = fd;
    return std::nullopt;
  }
  return cannotWrite + "the file keeps being replaced";
}

std::optional<std::string> LockedFile::replace(const std::string &contents) {
  const std::string failure = "cannot write the fixed file: ";
  if (fd_ < 0)
    return failure + "not open";
  // The whole new text goes to a temporary file first, fsynced, whichever way
  // it then replaces the file: a full disk or an I/O error shows here, before
  // the user's file is touched.
  std::string temporary;
  int tmp = createTemporaryBeside(realPath_, temporary);
  if (tmp < 0)
    return failure + "cannot create a temporary file beside it: " + lastError();
  auto abandon = [&](const std::string &why) {
    ::close(tmp);
    ::unlink(temporary.c_str());
    return failure + why;
  };
  if (!writeAll(tmp, contents, 0))
    return abandon(lastError());

  // A file with several hard links is rewritten in place (below); so is one
  // whose owner or group this user cannot give the new file (fchown fails
  // unless we are root or, for the group alone, a member of it), as editors
  // do. Otherwise the temporary file, with the owner, group and mode of the
  // original, is renamed over it.
  bool inPlace = status_.st_nlink > 1;
  if (!inPlace) {
    struct stat mine;
    if (::fstat(tmp, &mine) != 0)
      return abandon(lastError());
    if (mine.st_uid != status_.st_uid || mine.st_gid != status_.st_gid) {
      if (::fchown(tmp, status_.st_uid, status_.st_gid) != 0) {
        if (errno != EPERM)
          return abandon(lastError());
        inPlace = true;
      }
    }
  }
  if (!inPlace) {
    // After fchown, which clears set-user-ID and set-group-ID bits.
    if (::fchmod(tmp, status_.st_mode & 07777) != 0)
      return abandon(lastError());
    if (!syncFile(tmp))
      return abandon(lastError());
    if (::close(tmp) != 0) {
      std::string why = lastError();
      ::unlink(temporary.c_str());
      return failure + why;
    }
    if (::rename(temporary.c_str(), realPath_.c_str()) != 0) {
      std::string why = lastError();
      ::unlink(temporary.c_str());
      return failure + why;
    }
    syncDirectoryOf(realPath_);
    contents_ = contents;
    return std::nullopt;
  }

  // In place: the same inode, so every hard link (and the owner, group, mode,
  // ACLs) stays. The trade-off: this is not atomic. Readers of the file can
  // see the old text, the new one, or (for the moment of the write) a mix,
  // and a crash or SIGKILL during the write can leave a mix on disk. The
  // window is kept small and recoverable: the new text is complete and
  // fsynced in the temporary file before the file is touched (a killed run
  // leaves it there, named .<name>.gradlint-tmp-XXXXXX); the space is
  // reserved first; the text is written over the old one from offset 0 and
  // then truncated, never truncated first; a failed write puts the old text
  // back. Renaming instead would give the one name a new inode and leave the
  // other links with the unfixed text, or the file with our owner.
  if (!syncFile(tmp))
    return abandon(lastError());
  ::close(tmp);
#ifdef __linux__
  if (contents.size() > static_cast<size_t>(status_.st_size))
    ::fallocate(fd_, FALLOC_FL_KEEP_SIZE, 0, static_cast<off_t>(contents.size()));
#endif
  if (writeAll(fd_, contents, 0) && ::ftruncate(fd_, static_cast<off_t>(contents.size())) == 0 &&
      syncFile(fd_)) {
    ::unlink(temporary.c_str());
    contents_ = contents;
    return std::nullopt;
  }
  std::string why = lastError();
  if (writeAll(fd_, contents_, 0) && ::ftruncate(fd_, static_cast<off_t>(contents_.size())) == 0 &&
      syncFile(fd_)) {
    ::unlink(temporary.c_str());
    return failure + why + "; the file is unchanged";
  }
  return failure + why + "; the file may be damaged: the fixed text is in " + temporary;
}

} // namespace gradlint
