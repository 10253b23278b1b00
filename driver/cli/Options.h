// Command-line options of gradlint.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gradlint {

enum class OutputFormat { Text, Json, Sarif, Github, Markdown, Gitlab, Junit };

struct Options {
  std::vector<std::string> files;
  bool haveCompilerArgs = false;            ///< "--" was given
  std::vector<std::string> compilerArgs;    ///< everything after "--"
  std::vector<std::string> extraArgs;       ///< --extra-arg=<arg>, repeatable
  std::vector<std::string> extraArgsBefore; ///< --extra-arg-before=<arg>, repeatable
  std::string buildPath;                    ///< -p <dir>
  std::string checks;                       ///< --checks=<globs>
  std::string warningsAsErrors;             ///< --warnings-as-errors=<globs>
  std::string configFile;  ///< --config-file=<path>: instead of .gradlint.yaml discovery
  bool dumpConfig = false; ///< print each file's effective configuration
  bool listChecks = false;
  bool dumpModel = false;       ///< print the training-loop model instead
  bool confirm = false;         ///< --confirm: run each diagnosis on the runtime
  std::string backend = "auto"; ///< --backend=auto|cpu|cuda
  std::string plotFile;         ///< --plot=<file.svg> (implies --confirm)
  std::string emitRunsFile;     ///< --emit-runs=<file.json>: run loops as written
  int windows = 3;              ///< --windows=K for --emit-runs
  OutputFormat format = OutputFormat::Text;
  bool reportUnusedSuppressions = false; ///< NOLINT(accum-...) that silenced nothing is a finding
  std::string diffRange;                 ///< --diff=<git revision range>
  std::string diffFile;                  ///< --diff-file=<patch> (- for stdin)
  bool fix = false;                      ///< --fix: apply the fix-its
  bool fixDryRun = false;                ///< --fix-dry-run: print them as a diff
  bool unsafeFixes = false;              ///< --unsafe-fixes: include unsafe fixes
  bool inconclusive = false;             ///< --inconclusive: show conditional findings
  std::string exportFixesFile;           ///< --export-fixes=<file.yaml>
  std::string outputFile; ///< --output-file=<f>: the report there, written whole, not on stdout
  bool exitZero = false;  ///< --exit-zero: findings do not fail the run (errors still do)
  enum class Color { Auto, Always, Never } color = Color::Auto; ///< --color=
  bool statistics = false; ///< --statistics: counts per check instead of the findings
  unsigned jobs = 1;
  bool isolate = true; ///< analyse each file in a child process (--no-isolation: in-process)
  double timeoutSeconds = 600;    ///< --timeout=<s>: per file; 0 means none
  bool timeoutGiven = false;      ///< --timeout was on the command line
  uint64_t memoryLimitMiB = 4096; ///< --memory-limit=<MiB>: per file (RLIMIT_AS); 0 means none
  bool memoryLimitGiven = false;  ///< --memory-limit was on the command line
  std::string cacheDir;           ///< --cache-dir=<dir>: precompiled preambles (default: XDG cache)
  bool noCache = false;           ///< --no-cache
  bool noResultCache = false;     ///< --no-result-cache (precompiled preambles only)
  unsigned shardIndex = 0, shardCount = 0; ///< --shard=K/N (1-based K); 0: no sharding
  uint64_t cacheMaxBytes = 8ull << 30;     ///< --cache-max-size=<n>[K|M|G]; 0: no limit
  bool noPrefilter = false; ///< --no-prefilter: parse every file, even without a training loop
  bool verbose = false;     ///< --verbose: notes on skipped files and the cache
  bool help = false;
  bool version = false;
};

/// Parses argv; returns a one-line error on bad usage.
std::optional<std::string> parseOptions(int argc, const char *const *argv, Options &options);

/// The options `gradlint lsp` takes on its command line (the cache's); the
/// rest comes from the client's initializationOptions.
std::optional<std::string> parseLanguageServerOptions(int argc, const char *const *argv,
                                                      Options &options);

const char *usageText();
/// `gradlint lsp --help`.
const char *languageServerUsageText();

} // namespace gradlint
