// The negative half of a parse's inputs: every path the compiler looked up
// and did not find (the include directories searched before a header's hit,
// all of them for a header not found, a __has_include that said no, a missing
// -I directory, the toolchain probes of the driver). A cached result or a
// precompiled preamble is valid only while each of these still does not exist.
#pragma once

#include "llvm/Support/VirtualFileSystem.h"

#include <set>
#include <string>
#include <vector>

namespace gradlint {

class LookupRecordingFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  explicit LookupRecordingFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base)
      : ProxyFileSystem(std::move(base)) {}

  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &path) override;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine &path) override;
  bool exists(const llvm::Twine &path) override;

  /// The paths not found so far, absolute, without "." and "..", sorted.
  /// One parse uses one instance, from one thread.
  std::vector<std::string> absentPaths() const { return {absent_.begin(), absent_.end()}; }

private:
  void recordAbsent(const llvm::Twine &path);

  std::set<std::string> absent_;
};

/// Whether `path` still does not exist (one stat; a path the compiler could
/// not stat for another reason, such as permissions, counts as absent too).
bool stillAbsent(const std::string &path);

} // namespace gradlint
