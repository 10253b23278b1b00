#pragma once
// A file's status signature: what lets a cache skip reading a file it
// hashed before.

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace gradlint {

/// Now, on the realtime clock the file system stamps times from.
int64_t realtimeNs();

/// "<size>.<mtime ns>.<ctime ns>.<inode>" of the regular file `path`
/// (relative to `directory` when not absolute) whose status last changed
/// safely before `beforeNs`; else "=", no signature. Equal signatures mean
/// equal contents: a write, a replacement or a `touch -d` back to the old
/// mtime all set the ctime to the time they happen, which nobody can set
/// back. The margin covers the coarse clock file systems stamp times with (a
/// tick of a few milliseconds; whole seconds where the ctime has no
/// fraction), so a file written while it was being read never gets one.
std::string statSignature(llvm::StringRef path, llvm::StringRef directory, int64_t beforeNs);

} // namespace gradlint
