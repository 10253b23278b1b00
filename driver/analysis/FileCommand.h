// How one file is compiled. Apart from CompilationSetup, so that the preamble
// cache and the hand-over to an isolated child need no compilation database.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gradlint {

/// An `@file` argument of a compile command and the arguments it expanded
/// to (nested response files included). Their text is never printed: a
/// response file may be anything the command names (`@/etc/shadow`).
struct ResponseFile {
  std::string argument; ///< as written, "@path"
  std::vector<std::string> args;
};

struct FileCommand {
  std::string directory;         ///< the working directory of the compile
  std::vector<std::string> args; ///< argv, compiler first, file last
  bool usesApiModel = false;     ///< <torch/torch.h> was not on the include path
  bool fromNoDatabase = false;   ///< no -p, no "--" and no database found: gradlint's default
  std::vector<ResponseFile> responseFiles; ///< what args took from response files
};

/// `message` with every argument that came from one of `command`'s response
/// files (3 characters or longer) replaced by a mention of that file.
std::string withoutResponseFileText(std::string message, const FileCommand &command);

/// A command as one JSON text, and back (nullopt: not a command's JSON).
std::string encodeCommand(const FileCommand &command);
std::optional<FileCommand> decodeCommand(const std::string &text);

} // namespace gradlint
