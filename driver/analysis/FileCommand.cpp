#include "driver/analysis/FileCommand.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace gradlint {

std::string encodeCommand(const FileCommand &command) {
  nlohmann::json responseFiles = nlohmann::json::array();
  for (const ResponseFile &file : command.responseFiles)
    responseFiles.push_back({{"argument", file.argument}, {"args", file.args}});
  return nlohmann::json{{"directory", command.directory},
                        {"args", command.args},
                        {"uses_api_model", command.usesApiModel},
                        {"from_no_database", command.fromNoDatabase},
                        {"response_files", responseFiles}}
      .dump();
}

namespace {

/// The strings of a JSON array of strings; false when it is anything else.
bool stringsOf(const nlohmann::json &json, std::vector<std::string> &out) {
  if (!json.is_array())
    return false;
  for (const nlohmann::json &item : json) {
    if (!item.is_string())
      return false;
    out.push_back(item.get<std::string>());
  }
  return true;
}

} // namespace

std::optional<FileCommand> decodeCommand(const std::string &text) {
  nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object() || !json.contains("directory") || !json["directory"].is_string() ||
      !json.contains("args") || !json["args"].is_array() || !json.contains("uses_api_model") ||
      !json["uses_api_model"].is_boolean())
    return std::nullopt;
  FileCommand command;
  command.directory = json["directory"].get<std::string>();
  if (!stringsOf(json["args"], command.args))
    return std::nullopt;
  command.usesApiModel = json["uses_api_model"].get<bool>();
  if (json.contains("from_no_database")) {
    if (!json["from_no_database"].is_boolean())
      return std::nullopt;
    command.fromNoDatabase = json["from_no_database"].get<bool>();
  }
  if (json.contains("response_files")) {
    if (!json["response_files"].is_array())
      return std::nullopt;
    for (const nlohmann::json &file : json["response_files"]) {
      ResponseFile decoded;
      if (!file.is_object() || !file.contains("argument") || !file["argument"].is_string() ||
          !file.contains("args") || !stringsOf(file["args"], decoded.args))
        return std::nullopt;
      decoded.argument = file["argument"].get<std::string>();
      command.responseFiles.push_back(std::move(decoded));
    }
  }
  return command;
}

std::string withoutResponseFileText(std::string message, const FileCommand &command) {
  // Longest first, so that an argument containing another is replaced whole.
  std::vector<std::pair<std::string, const ResponseFile *>> secrets;
  for (const ResponseFile &file : command.responseFiles)
    for (const std::string &arg : file.args)
      if (arg.size() >= 3)
        secrets.push_back({arg, &file});
  std::sort(secrets.begin(), secrets.end(),
            [](const auto &a, const auto &b) { return a.first.size() > b.first.size(); });
  for (const auto &[secret, file] : secrets) {
    std::string mention = "<an argument from " + file->argument + ">";
    for (size_t at = message.find(secret); at != std::string::npos;
         at = message.find(secret, at + mention.size()))
      message.replace(at, secret.size(), mention);
  }
  return message;
}

} // namespace gradlint
