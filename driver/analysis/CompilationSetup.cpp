#include "driver/analysis/CompilationSetup.h"
#include "driver/analysis/BoundedFile.h"
#include "driver/analysis/Prefilter.h"
#include "driver/cache/PreambleCache.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <cstring>

namespace gradlint {

namespace {

std::vector<std::string> defaultCommand(const std::string &file) {
  return {"clang++", "-std=c++17", file};
}

std::string executableDir() {
  std::string exe =
      llvm::sys::fs::getMainExecutable(nullptr, reinterpret_cast<void *>(&defaultCommand));
  return std::string(llvm::sys::path::parent_path(exe));
}

/// Whether `file` is named like a C or C++ header.
bool isHeaderPath(llvm::StringRef file) {
  llvm::StringRef extension = llvm::sys::path::extension(file);
  return llvm::is_contained({".h", ".hh", ".hpp", ".hxx", ".h++", ".cuh", ".H"}, extension);
}

/// One line, no trailing space.
std::string oneLine(std::string error) {
  for (char &c : error)
    if (c == '\n' || c == '\r')
      c = ' ';
  while (!error.empty() && error.back() == ' ')
    error.pop_back();
  return error;
}

/// The files Clang reads as a compilation database in a directory.
const char *const kDatabaseNames[] = {"compile_commands.json", "compile_flags.txt"};

/// The compilation database for `dir`, searched as clangd searches: in
/// `dir` and each directory above it, the database there (as Clang's
/// autoDetectFromDirectory reads it) or else build/compile_commands.json
/// (CMake's usual build directory); empty when there is none.
std::string nearestDatabase(const std::string &dir) {
  for (std::string current = dir; !current.empty();) {
    for (const char *name : kDatabaseNames) {
      llvm::SmallString<256> candidate(current);
      llvm::sys::path::append(candidate, name);
      if (llvm::sys::fs::exists(candidate))
        return std::string(candidate);
    }
    llvm::SmallString<256> inBuild(current);
    llvm::sys::path::append(inBuild, "build", "compile_commands.json");
    if (llvm::sys::fs::exists(inBuild))
      return std::string(inBuild);
    std::string parent(llvm::sys::path::parent_path(current));
    if (parent == current)
      break;
    current = parent;
  }
  return "";
}

/// compile_commands.json at `path`, read once and bounded (never blocking on a
/// FIFO nor reading /dev/zero), loaded as Clang's loadFromDirectory loads it
/// except that response files stay unexpanded (commandFor expands them, bounded,
/// and keeps their text out of messages). Null with a one-line `error` when it
/// cannot be read or is not a JSON array of commands: -p and a database found
/// above a file give the same error.
std::unique_ptr<clang::tooling::CompilationDatabase> loadJsonDatabase(const std::string &path,
                                                                      std::string &error) {
  std::unique_ptr<llvm::MemoryBuffer> text;
  if (auto failure = readBoundedFile(path, kMaxDatabaseBytes, "a compilation database", text,
                                     /*requiresNullTerminator=*/false)) {
    error = failure->problem.empty()
                ? "cannot read compile_commands.json: " + failure->io.message()
                : "compile_commands.json is " + failure->problem + "; not read";
    return nullptr;
  }
  // Clang's parser is a YAML parser that prints its complaints about a
  // broken file itself; a file that is not JSON is reported here instead.
  try {
    nlohmann::json parsed =
        nlohmann::json::parse(text->getBuffer().begin(), text->getBuffer().end());
    (void)parsed;
  } catch (const nlohmann::json::parse_error &failure) {
    error = "cannot load compile_commands.json: it is not valid JSON (at byte " +
            std::to_string(failure.byte) + ")";
    return nullptr;
  } catch (const nlohmann::json::exception &) {
    // A number no double holds (555e555) is out_of_range, not a parse error.
    error = "cannot load compile_commands.json: it is not valid JSON (a number out of range)";
    return nullptr;
  }
  std::string clangError;
  std::unique_ptr<clang::tooling::JSONCompilationDatabase> json =
      clang::tooling::JSONCompilationDatabase::loadFromBuffer(
          text->getBuffer(), clangError, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  // Checked before any wrapping: inferMissingCompileCommands dereferences
  // the database it is given (a null one crashed the discovery path).
  if (!json) {
    error = "cannot load compile_commands.json: " + oneLine(clangError);
    return nullptr;
  }
  return clang::tooling::inferMissingCompileCommands(clang::tooling::inferTargetAndDriverMode(
      clang::tooling::inferMissingCompileCommands(std::move(json))));
}

/// The database at `path` (nearestDatabase's, or -p's): compile_commands.json
/// as loadJsonDatabase loads it, compile_flags.txt as Clang does. Null with a
/// one-line `error` when it cannot be used.
std::unique_ptr<clang::tooling::CompilationDatabase> loadDatabase(const std::string &path,
                                                                  std::string &error) {
  if (llvm::sys::path::filename(path) == "compile_commands.json")
    return loadJsonDatabase(path, error);
  if (auto failure = checkBoundedFile(path, kMaxDatabaseBytes, "compile_flags.txt")) {
    error = "compile_flags.txt is " + failure->problem + "; not read";
    return nullptr;
  }
  std::string clangError;
  std::unique_ptr<clang::tooling::CompilationDatabase> database =
      clang::tooling::FixedCompilationDatabase::loadFromFile(path, clangError);
  if (!database) {
    error = "cannot load compile_flags.txt: " + oneLine(clangError);
    return nullptr;
  }
  return clang::tooling::inferMissingCompileCommands(std::move(database));
}

/// Most arguments and nesting levels a compile command's response files may
/// expand to: a loop of files that name each other ends there.
constexpr size_t kMaxResponseFileArgs = 100000;
constexpr int kMaxResponseFileDepth = 16;

/// Appends what `@file` (`path` without the @) expands to, its own @files
/// expanded too; false when it cannot be read whole (not a regular file,
/// too large, a loop). Relative paths are relative to the compile's directory.
bool appendResponseFile(const std::string &path, const std::string &directory, bool windowsQuoting,
                        int depth, std::vector<std::string> &out) {
  llvm::SmallString<256> absolute(path);
  if (!llvm::sys::path::is_absolute(absolute))
    absolute = (llvm::Twine(directory) + "/" + path).str();
  std::unique_ptr<llvm::MemoryBuffer> text;
  if (depth > kMaxResponseFileDepth ||
      readBoundedFile(std::string(absolute), kMaxDatabaseBytes, "a response file", text,
                      /*requiresNullTerminator=*/false))
    return false;
  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver(allocator);
  llvm::SmallVector<const char *, 64> tokens;
  if (windowsQuoting)
    llvm::cl::TokenizeWindowsCommandLine(text->getBuffer(), saver, tokens);
  else
    llvm::cl::TokenizeGNUCommandLine(text->getBuffer(), saver, tokens);
  for (const char *token : tokens) {
    if (!token)
      continue; // an end-of-line marker
    llvm::StringRef arg(token);
    if (out.size() >= kMaxResponseFileArgs)
      return false;
    if (arg.size() > 1 && arg[0] == '@') {
      if (!appendResponseFile(arg.drop_front().str(), directory, windowsQuoting, depth + 1, out))
        return false;
      continue;
    }
    out.push_back(arg.str());
  }
  return true;
}

/// `args` with each readable `@file` replaced by its arguments, as Clang's
/// expandResponseFiles would (GNU quoting; Windows quoting for clang-cl),
/// each one recorded in `expanded`. One that cannot be read stays as written.
std::vector<std::string> expandResponseFiles(const std::vector<std::string> &args,
                                             const std::string &directory,
                                             std::vector<ResponseFile> &expanded) {
  bool windowsQuoting = false;
  for (const std::string &arg : args)
    windowsQuoting = windowsQuoting || arg == "--driver-mode=cl";
  if (!args.empty()) {
    llvm::StringRef program = llvm::sys::path::stem(args.front());
    windowsQuoting = windowsQuoting || program.equals_insensitive("cl") ||
                     program.equals_insensitive("clang-cl");
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    ResponseFile file{args[i], {}};
    if (i == 0 || args[i].size() < 2 || args[i][0] != '@' ||
        !appendResponseFile(args[i].substr(1), directory, windowsQuoting, 0, file.args)) {
      out.push_back(args[i]);
      continue;
    }
    out.insert(out.end(), file.args.begin(), file.args.end());
    expanded.push_back(std::move(file));
  }
  return out;
}

} // namespace

CompilationSetup::CompilationSetup() = default;
CompilationSetup::~CompilationSetup() = default;

std::string CompilationSetup::apiModelDir() {
  if (const char *env = std::getenv("GRADLINT_API_MODEL"))
    return env;
  return installedDataDir("api_model");
}

std::string installedDataDir(const std::string &name) {
  // bin/gradlint and share/gradlint/<name>, installed or in the build tree;
  // the build tree's other executables (tests, tools) sit a few levels deeper.
  std::string dir = executableDir();
  llvm::SmallString<256> first;
  for (int level = 0; level < 4 && !dir.empty(); ++level) {
    llvm::SmallString<256> candidate(dir);
    llvm::sys::path::append(candidate, "..", "share", "gradlint", name);
    llvm::sys::path::remove_dots(candidate, true);
    if (first.empty())
      first = candidate;
    if (llvm::sys::fs::is_directory(candidate))
      return std::string(candidate);
    std::string parent(llvm::sys::path::parent_path(dir));
    if (parent == dir)
      break;
    dir = parent;
  }
  return std::string(first);
}

std::optional<std::string> CompilationSetup::create(const SetupOptions &options,
                                                    std::unique_ptr<CompilationSetup> &out) {
  out.reset(new CompilationSetup());
  out->extraArgs_ = options.extraArgs;
  out->extraArgsBefore_ = options.extraArgsBefore;
  if (!options.noCache)
    out->preambleCache_ = std::make_unique<PreambleCache>(
        options.cacheDir.empty() ? PreambleCache::defaultDirectory() : options.cacheDir,
        options.cacheMaxBytes);
  if (!options.noPrefilter)
    out->prefilter_ = std::make_unique<Prefilter>();
  if (!options.buildPath.empty()) {
    llvm::SmallString<256> jsonPath(options.buildPath);
    llvm::sys::path::append(jsonPath, "compile_commands.json");
    std::string error;
    if (llvm::sys::fs::exists(jsonPath)) {
      out->fixedDatabase_ = loadJsonDatabase(std::string(jsonPath), error);
    } else {
      llvm::SmallString<256> flagsPath(options.buildPath);
      llvm::sys::path::append(flagsPath, "compile_flags.txt");
      if (auto failure =
              checkBoundedFile(std::string(flagsPath), kMaxDatabaseBytes, "compile_flags.txt"))
        return "compile_flags.txt is " + failure->problem + "; not read";
      std::unique_ptr<clang::tooling::CompilationDatabase> database =
          clang::tooling::CompilationDatabase::loadFromDirectory(options.buildPath, error);
      if (!database)
        return "cannot load compile_commands.json: " + oneLine(error);
      out->fixedDatabase_ = clang::tooling::inferMissingCompileCommands(std::move(database));
    }
    if (!out->fixedDatabase_)
      return error;
  } else if (options.haveCompilerArgs) {
    // Read as clang-tidy reads what follows "--": bare flags, or a whole
    // compiler command as CMake's CMAKE_CXX_CLANG_TIDY passes it
    // (`c++ -DX -Iinc -o f.o -c f.cpp`), whose compiler and inputs are dropped.
    std::vector<const char *> argv = {"gradlint", "--"};
    for (const std::string &arg : options.compilerArgs)
      argv.push_back(arg.c_str());
    int argc = static_cast<int>(argv.size());
    std::string error;
    out->fixedDatabase_ =
        clang::tooling::FixedCompilationDatabase::loadFromCommandLine(argc, argv.data(), error);
    if (!out->fixedDatabase_)
      return "cannot read the compiler arguments after '--': " + oneLine(error);
  }
  return std::nullopt;
}

std::vector<std::string> CompilationSetup::rawCommandFor(const std::string &file,
                                                         std::string &directory,
                                                         bool &fromNoDatabase) {
  fromNoDatabase = false;
  clang::tooling::CompilationDatabase *database = fixedDatabase_.get();
  std::shared_ptr<clang::tooling::CompilationDatabase> detected;
  if (!database) {
    std::string dir(llvm::sys::path::parent_path(file));
    std::lock_guard<std::mutex> lock(mutex_);
    // A database that cannot be used (databaseProblem reports it) leaves
    // the default command.
    databaseProblemLocked(dir);
    detected = detected_[dir].database;
    database = detected.get();
  }
  if (database) {
    std::vector<clang::tooling::CompileCommand> commands = database->getCompileCommands(file);
    if (!commands.empty()) {
      directory = commands.front().Directory;
      return commands.front().CommandLine;
    }
  }
  directory = std::string(llvm::sys::path::parent_path(file));
  fromNoDatabase = !database;
  return defaultCommand(file);
}

std::optional<std::pair<std::string, std::string>>
CompilationSetup::databaseProblemLocked(const std::string &dir) {
  // Looked up again on every call and loaded again when the file changed: a
  // language server outlives the half-written database of a CMake configure.
  std::string path = nearestDatabase(dir);
  llvm::sys::fs::file_status status;
  std::pair<uint64_t, int64_t> stamp{0, 0};
  if (!path.empty() && !llvm::sys::fs::status(path, status))
    stamp = {status.getSize(), status.getLastModificationTime().time_since_epoch().count()};
  DetectedDatabase &detected = detected_[dir];
  if (detected.loaded && detected.path == path && detected.stamp == stamp)
    return detected.problem;
  detected = DetectedDatabase{};
  detected.loaded = true;
  detected.path = path;
  detected.stamp = stamp;
  if (!path.empty()) {
    std::string error;
    detected.database = loadDatabase(path, error);
    if (!detected.database)
      detected.problem = std::make_pair(path, error);
  }
  return detected.problem;
}

std::optional<std::pair<std::string, std::string>>
CompilationSetup::databaseProblem(const std::string &file) {
  if (fixedDatabase_)
    return std::nullopt;
  std::lock_guard<std::mutex> lock(mutex_);
  return databaseProblemLocked(std::string(llvm::sys::path::parent_path(file)));
}

void CompilationSetup::presetCommand(const std::string &file, FileCommand command) {
  std::lock_guard<std::mutex> lock(mutex_);
  preset_[file] = std::move(command);
}

std::string CompilationSetup::absolutePath(const std::string &file) {
  llvm::SmallString<256> absolute(file);
  llvm::sys::fs::make_absolute(absolute);
  llvm::sys::path::remove_dots(absolute, true);
  return std::string(absolute);
}

FileCommand CompilationSetup::commandFor(const std::string &file) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto preset = preset_.find(file);
    if (preset != preset_.end())
      return preset->second;
  }
  FileCommand command;
  std::vector<std::string> args = rawCommandFor(file, command.directory, command.fromNoDatabase);
  args = expandResponseFiles(args, command.directory, command.responseFiles);
  using namespace clang::tooling;
  if (!extraArgsBefore_.empty())
    args = getInsertArgumentAdjuster(extraArgsBefore_, ArgumentInsertPosition::BEGIN)(args, file);
  if (!extraArgs_.empty())
    args = getInsertArgumentAdjuster(extraArgs_, ArgumentInsertPosition::END)(args, file);
  ArgumentsAdjuster adjust = combineAdjusters(
      getClangStripOutputAdjuster(),
      combineAdjusters(getClangStripDependencyFileAdjuster(), getClangSyntaxOnlyAdjuster()));
  args = adjust(args, file);
  // Analyse the file as the compiler would, minus code generation and warnings.
  // A file with errors is still analysed, on the AST Clang recovers: no
  // typo correction (it would put a different, declared name in the AST) and
  // no stop after the default 20 errors.
  std::vector<std::string> extra = {"-w", "-Wno-error", "-fno-spell-checking", "-ferror-limit=500"};
  bool haveResourceDir = false;
  for (const std::string &arg : args)
    haveResourceDir = haveResourceDir || arg.rfind("-resource-dir", 0) == 0;
  if (!haveResourceDir)
    extra.push_back(std::string("-resource-dir=") + GRADLINT_CLANG_RESOURCE_DIR);
  if (!headerReachable(args, command.directory, "torch/torch.h")) {
    extra.push_back("-isystem");
    extra.push_back(apiModelDir());
    command.usesApiModel = true;
  }
  args = getInsertArgumentAdjuster(extra, ArgumentInsertPosition::END)(args, file);
  // Clang takes a .h main file for C, and then refuses -std=c++17; headers
  // of a LibTorch project are C++.
  if (isHeaderPath(file) &&
      llvm::none_of(args, [](const std::string &arg) { return arg.rfind("-x", 0) == 0; }))
    args = getInsertArgumentAdjuster({"-x", "c++"}, ArgumentInsertPosition::BEGIN)(args, file);
  command.args = std::move(args);
  return command;
}

bool headerReachable(const std::vector<std::string> &args, const std::string &directory,
                     const std::string &header) {
  std::vector<std::string> dirs;
  static const char *const flags[] = {
      "-isystem", "-I", "-iquote", "-idirafter", "--include-directory", "-cxx-isystem"};
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &arg = args[i];
    for (const char *flag : flags) {
      std::string f = flag;
      if (arg == f && i + 1 < args.size()) {
        dirs.push_back(args[i + 1]);
      } else if (arg.size() > f.size() && arg.rfind(f, 0) == 0) {
        std::string rest = arg.substr(f.size());
        if (!rest.empty() && rest[0] == '=')
          rest = rest.substr(1);
        dirs.push_back(rest);
      }
    }
  }
  for (const char *env : {"CPATH", "CPLUS_INCLUDE_PATH"})
    if (const char *value = std::getenv(env)) {
      llvm::SmallVector<llvm::StringRef, 8> parts;
      llvm::StringRef(value).split(parts, ':', -1, false);
      for (llvm::StringRef part : parts)
        dirs.push_back(part.str());
    }
  dirs.push_back("/usr/local/include");
  dirs.push_back("/usr/include");
  for (const std::string &dir : dirs) {
    llvm::SmallString<256> path(dir);
    if (!llvm::sys::path::is_absolute(path)) {
      path = directory;
      llvm::sys::path::append(path, dir);
    }
    llvm::sys::path::append(path, header);
    if (llvm::sys::fs::exists(path))
      return true;
  }
  return false;
}

} // namespace gradlint
