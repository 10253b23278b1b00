#include "driver/analysis/FileCommand.h"

#include <nlohmann/json.hpp>

namespace gradlint {

std::string encodeCommand(const FileCommand &command) {
  return nlohmann::json{{"directory", command.directory},
                        {"args", command.args},
                        {"uses_api_model", command.usesApiModel}}
      .dump();
}

std::optional<FileCommand> decodeCommand(const std::string &text) {
  nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object() || !json.contains("directory") || !json["directory"].is_string() ||
      !json.contains("args") || !json["args"].is_array() || !json.contains("uses_api_model") ||
      !json["uses_api_model"].is_boolean())
    return std::nullopt;
  FileCommand command;
  command.directory = json["directory"].get<std::string>();
  for (const nlohmann::json &arg : json["args"]) {
    if (!arg.is_string())
      return std::nullopt;
    command.args.push_back(arg.get<std::string>());
  }
  command.usesApiModel = json["uses_api_model"].get<bool>();
  return command;
}

} // namespace gradlint
