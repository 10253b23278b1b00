#include "driver/config/Config.h"

#include "driver/analysis/BoundedFile.h"
#include "driver/analysis/CompilationSetup.h"
#include "driver/config/CheckSelection.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

#include <algorithm>
#include <set>

namespace gradlint {

namespace {

const char *const kTopLevelKeys =
    "Checks, WarningsAsErrors, InheritParentConfig, Inconclusive, CheckOptions, PerFileIgnores";

/// Reads one YAML document; the first problem wins and names line and column.
class ConfigReader {
public:
  ConfigReader(const std::string &path, const std::string &text,
               const std::vector<std::string> &registeredChecks)
      : path_(path), registeredChecks_(registeredChecks) {
    sourceManager_.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(text, path), llvm::SMLoc());
    sourceManager_.setDiagHandler(&ConfigReader::onYamlError, this);
  }

  std::optional<FileError> read(ConfigFile &out) {
    out.path = path_;
    llvm::StringRef text = sourceManager_.getMemoryBuffer(1)->getBuffer();
    llvm::yaml::Stream stream(text, sourceManager_);
    auto document = stream.begin();
    if (document == stream.end())
      return error_;
    llvm::yaml::Node *root = document->getRoot();
    if (!error_ && root && !llvm::isa<llvm::yaml::NullNode>(root))
      readTopLevel(root, out);
    if (!error_ && ++document != stream.end())
      fail(document->getRoot(), "only one YAML document is allowed");
    // The parser reports syntax errors through the handler as it goes.
    for (; !error_ && document != stream.end(); ++document)
      document->skip();
    return error_;
  }

private:
  static void onYamlError(const llvm::SMDiagnostic &diagnostic, void *context) {
    auto *reader = static_cast<ConfigReader *>(context);
    if (reader->error_)
      return;
    reader->error_ = FileError{reader->path_, "invalid YAML: " + diagnostic.getMessage().str(),
                               static_cast<unsigned>(std::max(diagnostic.getLineNo(), 1)),
                               static_cast<unsigned>(diagnostic.getColumnNo() + 1)};
  }

  void fail(llvm::yaml::Node *node, const std::string &message) {
    if (error_)
      return;
    FileError error{path_, message, 0, 0};
    if (node && node->getSourceRange().Start.isValid()) {
      auto [line, column] = sourceManager_.getLineAndColumn(node->getSourceRange().Start);
      error.line = line;
      error.column = column;
    }
    error_ = error;
  }

  std::optional<std::string> scalar(llvm::yaml::Node *node) {
    llvm::SmallString<64> storage;
    if (auto *text = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(node))
      return text->getValue(storage).str();
    if (auto *block = llvm::dyn_cast_or_null<llvm::yaml::BlockScalarNode>(node))
      return block->getValue().str();
    return std::nullopt;
  }

  /// A string or a list of strings; `what` names the key in errors.
  std::optional<std::vector<std::string>> stringList(llvm::yaml::Node *node,
                                                     const std::string &what) {
    if (!node || llvm::isa<llvm::yaml::NullNode>(node))
      return std::vector<std::string>{};
    if (std::optional<std::string> text = scalar(node))
      return std::vector<std::string>{*text};
    auto *sequence = llvm::dyn_cast<llvm::yaml::SequenceNode>(node);
    if (!sequence) {
      fail(node, what + " must be a string or a list of strings");
      return std::nullopt;
    }
    std::vector<std::string> items;
    for (llvm::yaml::Node &item : *sequence) {
      std::optional<std::string> text = scalar(&item);
      if (!text) {
        fail(&item, what + " must be a string or a list of strings");
        return std::nullopt;
      }
      items.push_back(*text);
    }
    return items;
  }

  /// Check globs: each must name at least one check, like --checks.
  std::optional<std::string> checkGlobs(llvm::yaml::Node *node, const std::string &key) {
    std::optional<std::vector<std::string>> items = stringList(node, key);
    if (!items)
      return std::nullopt;
    std::string joined;
    for (const std::string &item : *items) {
      std::vector<std::string> ignored;
      if (auto problem = selectChecks(item, registeredChecks_, ignored)) {
        fail(node, key + ": " + *problem);
        return std::nullopt;
      }
      joined += (joined.empty() ? "" : ",") + item;
    }
    return joined;
  }

  std::optional<bool> boolean(llvm::yaml::Node *value, const std::string &key) {
    std::optional<std::string> flag = scalar(value);
    std::string lowered = flag ? llvm::StringRef(*flag).lower() : "";
    if (lowered == "true" || lowered == "yes")
      return true;
    if (lowered == "false" || lowered == "no")
      return false;
    fail(value, key + " must be true or false");
    return std::nullopt;
  }

  void readTopLevel(llvm::yaml::Node *root, ConfigFile &out) {
    auto *mapping = llvm::dyn_cast<llvm::yaml::MappingNode>(root);
    if (!mapping)
      return fail(root, std::string("expected a mapping of ") + kTopLevelKeys);
    std::set<std::string> seen;
    for (llvm::yaml::KeyValueNode &entry : *mapping) {
      std::optional<std::string> key = scalar(entry.getKey());
      if (error_)
        return;
      if (!key)
        return fail(entry.getKey(), "expected a key");
      if (!seen.insert(*key).second)
        return fail(entry.getKey(), "duplicate key '" + *key + "'");
      llvm::yaml::Node *value = entry.getValue();
      if (error_)
        return;
      if (*key == "Checks") {
        if (auto globs = checkGlobs(value, *key))
          out.checks = *globs;
      } else if (*key == "WarningsAsErrors") {
        if (auto globs = checkGlobs(value, *key))
          out.warningsAsErrors = *globs;
      } else if (*key == "InheritParentConfig") {
        if (std::optional<bool> flag = boolean(value, *key))
          out.inheritParent = *flag;
      } else if (*key == "Inconclusive") {
        out.inconclusive = boolean(value, *key);
      } else if (*key == "CheckOptions") {
        readCheckOptions(value, out);
      } else if (*key == "PerFileIgnores") {
        readPerFileIgnores(value, out);
      } else {
        fail(entry.getKey(), "unknown key '" + *key + "' (expected " + kTopLevelKeys + ")");
      }
      if (error_)
        return;
    }
  }

  void readPerFileIgnores(llvm::yaml::Node *node, ConfigFile &out) {
    if (!node || llvm::isa<llvm::yaml::NullNode>(node))
      return;
    auto *mapping = llvm::dyn_cast<llvm::yaml::MappingNode>(node);
    if (!mapping)
      return fail(node, "PerFileIgnores must be a mapping of path globs to check globs");
    for (llvm::yaml::KeyValueNode &entry : *mapping) {
      std::optional<std::string> pattern = scalar(entry.getKey());
      if (error_)
        return;
      if (!pattern || pattern->empty())
        return fail(entry.getKey(), "expected a path glob");
      if (auto invalid = llvm::GlobPattern::create(*pattern); !invalid)
        return fail(entry.getKey(), "PerFileIgnores: invalid path glob '" + *pattern +
                                        "': " + llvm::toString(invalid.takeError()));
      std::optional<std::string> globs = checkGlobs(entry.getValue(), "PerFileIgnores");
      if (!globs)
        return;
      for (llvm::StringRef glob : llvm::split(*globs, ','))
        if (glob.trim().starts_with("-"))
          return fail(entry.getValue(), "PerFileIgnores names the checks to turn off, without "
                                        "'-' ('" +
                                            glob.trim().str() + "')");
      out.perFileIgnores.emplace_back(*pattern, *globs);
    }
  }

  void readCheckOptions(llvm::yaml::Node *node, ConfigFile &out) {
    if (!node || llvm::isa<llvm::yaml::NullNode>(node))
      return;
    auto *mapping = llvm::dyn_cast<llvm::yaml::MappingNode>(node);
    if (!mapping)
      return fail(node, "CheckOptions must be a mapping of option names to values");
    for (llvm::yaml::KeyValueNode &entry : *mapping) {
      std::optional<std::string> key = scalar(entry.getKey());
      if (error_)
        return;
      if (!key)
        return fail(entry.getKey(), "expected an option name");
      if (auto problem = optionKeyProblem(*key))
        return fail(entry.getKey(), *problem);
      if (out.checkOptions.count(*key))
        return fail(entry.getKey(), "duplicate option '" + *key + "'");
      std::optional<std::vector<std::string>> values = stringList(entry.getValue(), *key);
      if (!values)
        return;
      std::vector<std::string> names;
      for (const std::string &value : *values)
        for (std::string &name : splitNameList(value))
          names.push_back(std::move(name));
      out.checkOptions[*key] = std::move(names);
    }
  }

  /// "Option" or "<check-id>.Option", with a known option and check.
  std::optional<std::string> optionKeyProblem(const std::string &key) const {
    const std::vector<std::string> &known = ModelOptions::optionNames();
    size_t dot = key.rfind('.');
    std::string option = dot == std::string::npos ? key : key.substr(dot + 1);
    if (dot != std::string::npos) {
      std::string check = key.substr(0, dot);
      if (std::find(registeredChecks_.begin(), registeredChecks_.end(), check) ==
          registeredChecks_.end())
        return "option '" + key + "' names unknown check '" + check + "' (see --list-checks)";
    }
    if (std::find(known.begin(), known.end(), option) == known.end()) {
      std::string list;
      for (const std::string &name : known)
        list += (list.empty() ? "" : ", ") + name;
      return "unknown option '" + option + "' (expected " + list + ")";
    }
    return std::nullopt;
  }

  std::string path_;
  const std::vector<std::string> &registeredChecks_;
  llvm::SourceMgr sourceManager_;
  std::optional<FileError> error_;
};

std::string parentDirectory(const std::string &path) {
  return std::string(llvm::sys::path::parent_path(path));
}

/// A PerFileIgnores glob against a file: with a '/', the path relative to the
/// configuration's directory (a file outside it never matches); without one,
/// the file name, as in .gitignore. '*' also crosses '/', so "**" works too.
bool pathMatches(const std::string &pattern, const std::string &file,
                 const std::string &configDirectory) {
  llvm::Expected<llvm::GlobPattern> glob = llvm::GlobPattern::create(pattern);
  if (!glob) {
    llvm::consumeError(glob.takeError());
    return false;
  }
  if (pattern.find('/') == std::string::npos)
    return glob->match(llvm::sys::path::filename(file));
  llvm::StringRef relative(file);
  if (!relative.consume_front(configDirectory) ||
      !(relative.consume_front("/") || configDirectory.back() == '/'))
    return false;
  return glob->match(llvm::StringRef(pattern).starts_with("./") ? "./" + relative.str()
                                                                : relative.str());
}

std::string yamlQuoted(const std::string &text) {
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

} // namespace

std::optional<FileError> parseConfig(const std::string &path, const std::string &text,
                                     const std::vector<std::string> &registeredChecks,
                                     ConfigFile &out) {
  return ConfigReader(path, text, registeredChecks).read(out);
}

bool FileConfig::isWarningAsError(const std::string &check) const {
  return std::find(warningsAsErrors.begin(), warningsAsErrors.end(), check) !=
         warningsAsErrors.end();
}

ConfigResolver::ConfigResolver(std::vector<std::string> registeredChecks, std::string configFile,
                               std::string commandLineChecks,
                               std::string commandLineWarningsAsErrors,
                               bool commandLineInconclusive)
    : registeredChecks_(std::move(registeredChecks)), configFile_(std::move(configFile)),
      commandLineChecks_(std::move(commandLineChecks)),
      commandLineWarningsAsErrors_(std::move(commandLineWarningsAsErrors)),
      commandLineInconclusive_(commandLineInconclusive) {}

const std::vector<std::string> &ConfigResolver::fileNames() {
  static const std::vector<std::string> names = {".gradlint.yaml", ".gradlint.yml"};
  return names;
}

std::optional<FileError> ConfigResolver::load(const std::string &path, const ConfigFile *&out) {
  if (auto found = parsed_.find(path); found != parsed_.end()) {
    out = found->second.get();
    return std::nullopt;
  }
  if (auto failed = failed_.find(path); failed != failed_.end())
    return failed->second;
  auto remember = [&](FileError error) {
    failed_[path] = error;
    return error;
  };
  // Only a regular file, never blocking in open() (a FIFO) nor reading without bound.
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  if (auto failure = readBoundedFile(path, kMaxConfigBytes, "a configuration file", buffer))
    return remember({path, failure->problem.empty()
                               ? "cannot read configuration file: " + failure->io.message()
                               : failure->problem + "; not read"});
  auto config = std::make_unique<ConfigFile>();
  if (auto error = parseConfig(path, buffer->getBuffer().str(), registeredChecks_, *config))
    return remember(*error);
  out = config.get();
  parsed_[path] = std::move(config);
  return std::nullopt;
}

std::string ConfigResolver::nearestConfig(const std::string &directory) {
  if (directory.empty())
    return "";
  if (auto known = nearestByDirectory_.find(directory); known != nearestByDirectory_.end())
    return known->second;
  std::string found;
  for (const std::string &name : fileNames()) {
    llvm::SmallString<256> candidate(directory);
    llvm::sys::path::append(candidate, name);
    if (llvm::sys::fs::exists(candidate)) {
      found = std::string(candidate);
      break;
    }
  }
  if (found.empty()) {
    std::string parent = parentDirectory(directory);
    if (parent != directory)
      found = nearestConfig(parent);
  }
  nearestByDirectory_[directory] = found;
  return found;
}

std::optional<FileError> ConfigResolver::configFor(const std::string &sourceFile, FileConfig &out) {
  std::lock_guard<std::mutex> lock(mutex_);
  out = FileConfig();
  // The chain of files, nearest first.
  std::vector<const ConfigFile *> chain;
  std::string next =
      configFile_.empty()
          ? nearestConfig(parentDirectory(CompilationSetup::absolutePath(sourceFile)))
          : configFile_;
  std::set<std::string> visited;
  while (!next.empty() && visited.insert(next).second) {
    const ConfigFile *config = nullptr;
    if (auto error = load(next, config))
      return error;
    chain.push_back(config);
    out.sources.push_back(config->path);
    next = config->inheritParent
               ? nearestConfig(
                     parentDirectory(parentDirectory(CompilationSetup::absolutePath(config->path))))
               : "";
  }

  // Globs and options apply from the outermost file in, then the command line.
  std::string checks, warningsAsErrors;
  std::map<std::string, std::vector<std::string>> merged;
  for (auto config = chain.rbegin(); config != chain.rend(); ++config) {
    if ((*config)->inconclusive)
      out.inconclusive = *(*config)->inconclusive;
    checks += "," + (*config)->checks;
    warningsAsErrors += "," + (*config)->warningsAsErrors;
    for (const auto &[key, values] : (*config)->checkOptions)
      merged[key] = values;
  }
  checks += "," + commandLineChecks_;
  out.inconclusive = out.inconclusive || commandLineInconclusive_;
  // PerFileIgnores come last, after --checks too: a path that is off stays off.
  for (auto config = chain.rbegin(); config != chain.rend(); ++config)
    for (const auto &[pattern, globs] : (*config)->perFileIgnores)
      if (pathMatches(pattern, CompilationSetup::absolutePath(sourceFile),
                      parentDirectory(CompilationSetup::absolutePath((*config)->path))))
        for (llvm::StringRef glob : llvm::split(globs, ','))
          checks += ",-" + glob.trim().str();
  warningsAsErrors += "," + commandLineWarningsAsErrors_;
  if (auto error = selectChecks(checks, registeredChecks_, out.enabledChecks))
    return FileError{configFile_, *error, 0, 0}; // only the command line can still be wrong
  if (auto error = selectChecks("-*" + warningsAsErrors, registeredChecks_, out.warningsAsErrors))
    return FileError{configFile_, *error, 0, 0};

  for (const std::string &check : out.enabledChecks) {
    ModelOptions options;
    for (const std::string &name : ModelOptions::optionNames()) {
      auto local = merged.find(check + "." + name);
      auto global = merged.find(name);
      if (local != merged.end())
        *options.list(name) = local->second;
      else if (global != merged.end())
        *options.list(name) = global->second;
    }
    out.modelOptions[check] = std::move(options);
  }
  return std::nullopt;
}

std::string dumpConfig(const FileConfig &config) {
  std::string out;
  if (config.sources.empty())
    out += "# no configuration file\n";
  for (const std::string &source : config.sources)
    out += "# from " + source + "\n";
  std::string enabled, errors;
  for (const std::string &check : config.enabledChecks)
    enabled += (enabled.empty() ? "" : ",") + check;
  for (const std::string &check : config.warningsAsErrors)
    errors += (errors.empty() ? "" : ",") + check;
  out += "Checks: " + yamlQuoted(enabled.empty() ? "-*" : "-*," + enabled) + "\n";
  out += "WarningsAsErrors: " + yamlQuoted(errors) + "\n";
  out += std::string("Inconclusive: ") + (config.inconclusive ? "true" : "false") + "\n";
  out += "CheckOptions:";
  bool any = false;
  auto line = [&](const std::string &key, const std::vector<std::string> &values) {
    std::string joined;
    for (const std::string &value : values)
      joined += (joined.empty() ? "" : ";") + value;
    out += "\n  " + key + ": " + yamlQuoted(joined);
    any = true;
  };
  // An option every check shares is printed once, without a check prefix.
  for (const std::string &name : ModelOptions::optionNames()) {
    std::vector<std::vector<std::string>> lists;
    for (const auto &entry : config.modelOptions) {
      ModelOptions copy = entry.second;
      lists.push_back(*copy.list(name));
    }
    bool shared = !lists.empty() && std::all_of(lists.begin(), lists.end(),
                                                [&](const auto &l) { return l == lists[0]; });
    if (shared) {
      if (!lists[0].empty())
        line(name, lists[0]);
      continue;
    }
    for (const auto &[check, options] : config.modelOptions) {
      ModelOptions copy = options;
      if (!copy.list(name)->empty())
        line(check + "." + name, *copy.list(name));
    }
  }
  out += any ? "\n" : " {}\n";
  return out;
}

} // namespace gradlint
