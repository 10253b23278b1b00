// `file://` URIs, as LSP names documents, and the local paths they stand for.
#pragma once

#include <optional>
#include <string>

namespace gradlint::lsp {

/// The local path of a `file://` URI (percent-decoded); nullopt for other
/// schemes, remote hosts and malformed escapes.
std::optional<std::string> fileUriToPath(const std::string &uri);

/// A `file://` URI for an absolute path, escaping all but unreserved characters and '/'.
std::string pathToFileUri(const std::string &path);

} // namespace gradlint::lsp
