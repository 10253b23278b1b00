// .gradlint.yaml: which checks run, which findings are errors, and what the
// user's own helpers and names mean. Found by walking up from each file, as
// clang-tidy finds .clang-tidy; --config-file names one for every file.
//
//   Checks: '-*,accum-*'              # or a list of globs
//   WarningsAsErrors: 'accum-missing-loss-division'
//   InheritParentConfig: true         # also read the .gradlint.yaml above
//   Inconclusive: true                # also show conditional findings
//   CheckOptions:
//     GradientSyncFunctions: [sync_gradients, 'dist::average_grads']
//     accum-double-world-size-scaling.WorldSizeNames: num_replicas
//   PerFileIgnores:                   # checks off for some paths, last
//     'tests/**': accum-misplaced-zero-grad
#pragma once

#include "driver/analysis/Diagnostics.h"
#include "model/ModelOptions.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace gradlint {

/// One configuration file as written.
struct ConfigFile {
  std::string path;
  bool inheritParent = false;
  std::string checks;           ///< comma-separated globs ("" when absent)
  std::string warningsAsErrors; ///< comma-separated globs ("" when absent)
  /// Inconclusive: show conditional findings (unset: the next file's, else no).
  std::optional<bool> inconclusive;
  /// "GradientSyncFunctions" (every check) or "accum-x.GradientSyncFunctions".
  std::map<std::string, std::vector<std::string>> checkOptions;
  /// PerFileIgnores: a path glob (relative to the file's directory; without
  /// '/', a file name) and the comma-separated check globs turned off there.
  std::vector<std::pair<std::string, std::string>> perFileIgnores;
};

/// Parses `text` (read from `path`); a bad file is one error naming its line
/// and column. `registeredChecks` tells check ids and globs from typos.
std::optional<FileError> parseConfig(const std::string &path, const std::string &text,
                                     const std::vector<std::string> &registeredChecks,
                                     ConfigFile &out);

/// What applies to one source file.
struct FileConfig {
  /// The configuration files read, nearest first; empty without one.
  std::vector<std::string> sources;
  std::vector<std::string> enabledChecks;
  std::vector<std::string> warningsAsErrors; ///< check ids
  /// Conditional findings (true only when an unknown count or value allows
  /// it) are shown: the nearest file's `Inconclusive`, or --inconclusive.
  bool inconclusive = false;
  /// The model options each enabled check sees (its own keys over the global ones).
  std::map<std::string, ModelOptions> modelOptions;
  bool isWarningAsError(const std::string &check) const;
};

/// Finds, parses and combines configuration files; caches them by path.
/// Thread-safe.
class ConfigResolver {
public:
  /// `configFile`: --config-file (empty: discover); `commandLineChecks` and
  /// `commandLineWarningsAsErrors` apply after every file's own settings.
  ConfigResolver(std::vector<std::string> registeredChecks, std::string configFile,
                 std::string commandLineChecks, std::string commandLineWarningsAsErrors,
                 bool commandLineInconclusive = false);

  /// The configuration of `sourceFile`, or the first error of a file it uses.
  std::optional<FileError> configFor(const std::string &sourceFile, FileConfig &out);

  /// The file names searched for in each directory.
  static const std::vector<std::string> &fileNames();

private:
  /// Parses (or returns the cached) file at `path`.
  std::optional<FileError> load(const std::string &path, const ConfigFile *&out);
  /// The nearest configuration file at or above `directory`, "" for none.
  std::string nearestConfig(const std::string &directory);

  std::vector<std::string> registeredChecks_;
  std::string configFile_;
  std::string commandLineChecks_;
  std::string commandLineWarningsAsErrors_;
  bool commandLineInconclusive_ = false;
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<ConfigFile>> parsed_;
  std::map<std::string, FileError> failed_;
  std::map<std::string, std::string> nearestByDirectory_;
};

/// The effective configuration of a file as YAML (gradlint --dump-config).
std::string dumpConfig(const FileConfig &config);

} // namespace gradlint
