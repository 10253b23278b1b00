// Which code is the user's: the model is built from it alone, never from
// system headers, LibTorch or the libraries LibTorch brings.
#pragma once

#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"

namespace gradlint {

/// Whether a file lies in a directory of LibTorch or its dependencies (by
/// path, so headers reached through -I rather than -isystem count too).
bool isLibraryPath(llvm::StringRef path);

/// Whether a location belongs to the user's code: the main file or a project
/// header, never a system header, LibTorch or the bundled API model.
bool isUserCode(const clang::SourceManager &sm, clang::SourceLocation loc);

} // namespace gradlint
