// In API-model mode, LibTorch's include paths (torch/, ATen/, c10/, c10d/,
// caffe2/) must resolve inside the model: a header the model lacks would
// otherwise fall through to an installed LibTorch in /usr/include and clash
// with the model's declarations, or stop the parse with a fatal "file not
// found". This file system serves such a header as an empty placeholder (and
// its folders as empty folders) and records which ones it served, so that the
// analysis can say which header the model lacks.
#pragma once

#include "llvm/Support/VirtualFileSystem.h"

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

namespace gradlint {

class ApiModelFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  /// `modelDir` is the API model's directory as it appears on the include path.
  ApiModelFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base, std::string modelDir);

  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &path) override;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine &path) override;

  /// The placeholders served so far, as include paths ("ATen/autocast_mode.h").
  std::set<std::string> servedHeaders() const;

private:
  /// The include path of `path` when it is a LibTorch path inside the model
  /// that does not exist there; empty otherwise.
  std::string missingModelPath(const llvm::Twine &path);

  std::string modelDir_;
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> placeholders_;
  mutable std::mutex mutex_;
  std::set<std::string> served_;
  std::map<std::string, llvm::sys::fs::UniqueID> folderIds_;
};

/// Wraps `base` in an ApiModelFileSystem for the model at `modelDir`.
llvm::IntrusiveRefCntPtr<ApiModelFileSystem>
makeApiModelFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base,
                       const std::string &modelDir);

} // namespace gradlint
