// Finds the compiler arguments for each file (compile_commands.json, the
// arguments after "--", or a default), and decides when the bundled LibTorch
// API model stands in for the real headers.
#pragma once

#include "driver/analysis/FileCommand.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace gradlint {

class PreambleCache;
class Prefilter;

/// Where compile commands come from and which speed-ups are on; filled from
/// the command line or from an editor's initializationOptions.
struct SetupOptions {
  std::string buildPath;                 ///< -p: compile_commands.json's directory
  bool haveCompilerArgs = false;         ///< "--" was given
  std::vector<std::string> compilerArgs; ///< everything after "--"
  /// --extra-arg / --extra-arg-before, as clang-tidy takes them: appended to
  /// (inserted at the front of) every file's compile command.
  std::vector<std::string> extraArgs, extraArgsBefore;
  bool noCache = false;
  std::string cacheDir;                ///< "": PreambleCache::defaultDirectory()
  uint64_t cacheMaxBytes = 8ull << 30; ///< 0: no limit; the default of --cache-max-size
  bool noPrefilter = false;
};

class CompilationSetup {
public:
  CompilationSetup();
  ~CompilationSetup();

  /// Returns a one-line error when -p names no usable compilation database.
  static std::optional<std::string> create(const SetupOptions &options,
                                           std::unique_ptr<CompilationSetup> &out);

  /// The command for one file (absolute path). Thread-safe.
  FileCommand commandFor(const std::string &file);

  /// Makes commandFor(file) return `command` without consulting a database:
  /// an isolated child gets its command from the parent instead of
  /// re-reading a possibly huge compile_commands.json.
  void presetCommand(const std::string &file, FileCommand command);

  /// Without -p or "--": when the compilation database found above `file`
  /// (absolute) cannot be used (no regular file, too large, not a JSON array
  /// of commands), its path and the same one-line problem -p would give; the
  /// file then gets the default command. Thread-safe.
  std::optional<std::pair<std::string, std::string>> databaseProblem(const std::string &file);

  /// (The pair: the database's path and its problem.)

  /// The file's absolute path with dots removed, as commandFor expects it.
  static std::string absolutePath(const std::string &file);

  /// Where the bundled API model lives: $GRADLINT_API_MODEL, else
  /// installedDataDir("api_model").
  static std::string apiModelDir();

  /// Precompiled include prefixes (null: --no-cache) and the prefilter (null:
  /// --no-prefilter; files on disk only).
  PreambleCache *preambleCache() { return preambleCache_.get(); }
  Prefilter *prefilter() { return prefilter_.get(); }

private:
  /// `fromNoDatabase`: no database gave the command (gradlint's default).
  std::vector<std::string> rawCommandFor(const std::string &file, std::string &directory,
                                         bool &fromNoDatabase);
  /// mutex_ held
  std::optional<std::pair<std::string, std::string>> databaseProblemLocked(const std::string &dir);

  std::unique_ptr<clang::tooling::CompilationDatabase> fixedDatabase_;
  std::vector<std::string> extraArgs_, extraArgsBefore_;
  std::unique_ptr<PreambleCache> preambleCache_;
  std::unique_ptr<Prefilter> prefilter_;
  std::mutex mutex_;
  std::map<std::string, FileCommand> preset_;
  /// A database found above a directory, as databaseProblemLocked loaded it.
  struct DetectedDatabase {
    bool loaded = false;
    std::string path;                   ///< "" when there is none
    std::pair<uint64_t, int64_t> stamp; ///< its size and mtime when loaded
    std::shared_ptr<clang::tooling::CompilationDatabase> database; ///< null: none or unusable
    std::optional<std::pair<std::string, std::string>> problem;
  };
  /// By the directory they were searched from.
  std::map<std::string, DetectedDatabase> detected_;
};

/// share/gradlint/<name> (api_model, rules) beside the running executable's
/// bin/ (installed, or in the build tree); the first place looked when none exists.
std::string installedDataDir(const std::string &name);

/// Whether `header` (e.g. "torch/torch.h") resolves with these arguments.
bool headerReachable(const std::vector<std::string> &args, const std::string &directory,
                     const std::string &header);

} // namespace gradlint
