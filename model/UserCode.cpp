#include "model/UserCode.h"

namespace gradlint {

bool isLibraryPath(llvm::StringRef path) {
  static const char *const libraryDirs[] = {"/torch/csrc/", "/ATen/",     "/c10/", "/c10d/",
                                            "/caffe2/",     "/pybind11/", "/gloo/"};
  for (const char *dir : libraryDirs)
    if (path.contains(dir))
      return true;
  return false;
}

bool isUserCode(const clang::SourceManager &sm, clang::SourceLocation loc) {
  if (loc.isInvalid())
    return false;
  loc = sm.getExpansionLoc(loc);
  if (sm.isInSystemHeader(loc))
    return false;
  if (sm.isInMainFile(loc))
    return true;
  llvm::StringRef path = sm.getFilename(loc);
  if (path.empty())
    return false;
  // LibTorch headers reached through -I (not -isystem) are still not the user's.
  return !isLibraryPath(path);
}

} // namespace gradlint
