// Writes a whole file through a temporary file beside it and a rename, so a
// reader (or a run killed midway) never sees a partial file.
#pragma once

#include <optional>
#include <string>

namespace gradlint {

/// Writes `contents` to `path`. `keepPermissions`: `path` must exist and be
/// writable by its owner (a read-only file is refused, even for root), and the
/// new file gets its permissions. Returns a one-line error ("cannot write
/// <what>: <why>"); the caller names the file.
std::optional<std::string> writeFileAtomically(const std::string &path, const std::string &contents,
                                               const std::string &what,
                                               bool keepPermissions = false);

} // namespace gradlint
