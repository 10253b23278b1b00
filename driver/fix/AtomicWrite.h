// Writing files so that nobody sees a partial one: whole outputs through a
// temporary file beside them and a rename, and --fix's rewrites of the user's
// sources under a lock, through symbolic links, keeping hard links, owner,
// group and mode.
#pragma once

#include <optional>
#include <string>

#include <sys/stat.h>

namespace gradlint {

/// Writes `contents` to `path` (an output of gradlint's own: the exported
/// fixes, the loop runs, the plot) through a temporary file, fsync and a
/// rename. Returns a one-line error ("cannot write <what>: <why>"); the caller
/// names the file.
std::optional<std::string> writeFileAtomically(const std::string &path, const std::string &contents,
                                               const std::string &what);

/// A source file --fix rewrites. open() follows symbolic links to the real
/// file, refuses it unless the invoking user may write it, takes an exclusive
/// advisory lock (flock) on it and reads it; the lock is held until the
/// object goes away, so that what was read is what replace() overwrites and,
/// of two gradlint runs, only one rewrites the file at a time.
class LockedFile {
public:
  LockedFile() = default;
  ~LockedFile();
  LockedFile(const LockedFile &) = delete;
  LockedFile &operator=(const LockedFile &) = delete;

  /// A one-line error ("cannot ...: <why>") when the file cannot be opened,
  /// written or locked; the caller names the file.
  std::optional<std::string> open(const std::string &path);

  /// The contents, read under the lock.
  const std::string &contents() const { return contents_; }

  /// Replaces the contents with `contents`; never leaves a partial file.
  std::optional<std::string> replace(const std::string &contents);

private:
  int fd_ = -1;
  std::string realPath_;
  std::string contents_;
  struct stat status_ = {};
};

} // namespace gradlint
