#include "driver/fix/AtomicWrite.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace gradlint {

std::optional<std::string> writeFileAtomically(const std::string &path, const std::string &contents,
                                               const std::string &what, bool keepPermissions) {
  std::string failure = "cannot write " + what + ": ";
  llvm::sys::fs::file_status status;
  if (keepPermissions) {
    if (std::error_code error = llvm::sys::fs::status(path, status))
      return failure + error.message();
    if ((status.permissions() & llvm::sys::fs::owner_write) == 0)
      return failure + "the file is read-only";
  }
  // Beside the file (rename is atomic within a directory), hidden and named
  // as gradlint's, since a killed run can leave it behind.
  llvm::SmallString<256> pattern(llvm::sys::path::parent_path(path));
  llvm::sys::path::append(pattern, "." + std::string(llvm::sys::path::filename(path)) +
                                       ".gradlint-tmp-%%%%%%");
  llvm::SmallString<256> temporary;
  int fd = -1;
  if (std::error_code error = llvm::sys::fs::createUniqueFile(pattern, fd, temporary))
    return failure + error.message();
  bool failed = false;
  {
    llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
    out << contents;
    out.flush();
    failed = out.has_error();
    out.clear_error();
  }
  if (!failed && keepPermissions && llvm::sys::fs::setPermissions(temporary, status.permissions()))
    failed = true;
  std::error_code renamed;
  if (!failed)
    renamed = llvm::sys::fs::rename(temporary, path);
  if (failed || renamed) {
    llvm::sys::fs::remove(temporary);
    return failure + (renamed ? renamed.message() : "write failed");
  }
  return std::nullopt;
}

} // namespace gradlint
