// How one file is compiled. Apart from CompilationSetup, so that the preamble
// cache and the hand-over to an isolated child need no compilation database.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gradlint {

struct FileCommand {
  std::string directory;         ///< the working directory of the compile
  std::vector<std::string> args; ///< argv, compiler first, file last
  bool usesApiModel = false;     ///< <torch/torch.h> was not on the include path
};

/// A command as one JSON text, and back (nullopt: not a command's JSON).
std::string encodeCommand(const FileCommand &command);
std::optional<FileCommand> decodeCommand(const std::string &text);

} // namespace gradlint
