#include "driver/cli/Options.h"

#include "driver/cache/PreambleCache.h"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace gradlint {

const char *usageText() {
  return "usage: gradlint [options] <files...> [-- <compiler args>]\n"
         "       gradlint lsp [--cache-dir=<dir>] [--no-cache] [--cache-max-size=<n>]\n"
         "                       (a language server on stdin/stdout, for editors)\n"
         "\n"
         "Finds gradient-accumulation bugs in C++ LibTorch training loops.\n"
         "\n"
         "options:\n"
         "  -p <dir>            read compile_commands.json from <dir>\n"
         "  --extra-arg=<arg>   append <arg> to each file's compile command\n"
         "  --extra-arg-before=<arg>\n"
         "                      insert <arg> at the front of each compile command\n"
         "  --checks=<globs>    enable/disable checks, clang-tidy syntax (e.g. -*,accum-*)\n"
         "  --list-checks       list the enabled checks and exit\n"
         "  --warnings-as-errors=<globs>\n"
         "                      report these checks' findings as errors\n"
         "  --config-file=<f>   read the configuration from <f> instead of the\n"
         "                      .gradlint.yaml found above each file\n"
         "  --dump-config       print each file's effective configuration and exit\n"
         "  --format=<f>        output format: text (default), json, sarif, github\n"
         "                      (workflow commands), markdown (a PR comment), gitlab\n"
         "                      (Code Quality report) or junit (JUnit XML)\n"
         "  -o, --output-file=<f>  write the report to <f> (whole, or not at all)\n"
         "                      instead of stdout; errors still go to stderr\n"
         "  --statistics        print how many findings each check produced (and how\n"
         "                      many --fix can fix) instead of the findings (text or\n"
         "                      json format)\n"
         "  --exit-zero         exit 0 even when there are findings (2 on errors still)\n"
         "  --color=<when>      color the text output: auto (default: when stdout is a\n"
         "                      terminal and NO_COLOR is not set), always or never\n"
         "  --diff=<range>      report only findings on lines changed in the git\n"
         "                      revision range (e.g. origin/main...HEAD); without\n"
         "                      files, analyse the changed C++ sources\n"
         "  --diff-file=<patch>  the same from a unified diff file (- for stdin)\n"
         "  --fix               apply the fix-its (safe ones; see --unsafe-fixes)\n"
         "  --fix-dry-run       print the fix-its as a unified diff, change nothing\n"
         "  --unsafe-fixes      also apply fixes marked unsafe\n"
         "  --export-fixes=<f>  write the fix-its as clang-apply-replacements YAML\n"
         "  --inconclusive      also report conditional findings: those that hold only\n"
         "                      for values gradlint cannot see (a batch count it does\n"
         "                      not know); marked conditional in every format\n"
         "  --report-unused-suppressions\n"
         "                      report NOLINT comments naming a gradlint check that\n"
         "                      suppress nothing [gradlint-unused-suppression]\n"
         "  -j <n>              analyse <n> translation units in parallel\n"
         "  --timeout=<s>       give up on a file whose analysis takes longer than\n"
         "                      <s> seconds (an error for that file); default 600,\n"
         "                      0: no limit\n"
         "  --memory-limit=<MiB>  give up on a file whose analysis needs more than\n"
         "                      <MiB> MiB of address space (virtual memory, on top\n"
         "                      of its child process's own; RLIMIT_AS; an error for\n"
         "                      that file); default 4096, 0: no limit\n"
         "  --no-isolation      analyse in this process, not one child process per\n"
         "                      file (for debugging; a crash then ends the run, and\n"
         "                      --timeout and --memory-limit cannot apply)\n"
         "  --cache-dir=<dir>   keep precompiled headers of the files' #include lines\n"
         "                      in <dir> (default $XDG_CACHE_HOME/gradlint or\n"
         "                      ~/.cache/gradlint)\n"
         "  --no-cache          do not use or write precompiled headers, nor the\n"
         "                      results of unchanged files (<dir>/results)\n"
         "  --shard=<K>/<N>     analyse only every N-th of the sorted input files,\n"
         "                      from the K-th (for a CI matrix; merge the shards'\n"
         "                      SARIF with gradlint merge-sarif)\n"
         "  --no-result-cache   analyse every file again, even unchanged ones (the\n"
         "                      precompiled headers are still used)\n"
         "  --cache-max-size=<n>  after writing a precompiled header, delete the least\n"
         "                      recently used ones until the cache holds at most <n>\n"
         "                      bytes (K, M, G suffixes; default 8G; 0: no limit)\n"
         "  --no-prefilter      parse every file; by default a file without the tokens\n"
         "                      'step' and 'backward' (in it or its project headers)\n"
         "                      cannot hold a training loop and is skipped\n"
         "  --verbose           notes on skipped files and cache use\n"
         "  --dump-model        print the training-loop model of each file\n"
         "  --confirm           confirm each diagnosis on the reference runtime\n"
         "  --backend=<b>       runtime backend for --confirm: auto, cpu or cuda\n"
         "  --plot=<file.svg>   draw each confirmed diagnosis's parameter error over\n"
         "                      10 optimizer steps (implies --confirm)\n"
         "  --emit-runs=<file>  run every training loop as written on the runtime and\n"
         "                      write rank 0's parameters to <file> (JSON);\n"
         "                      --windows=<k> optimizer steps (default 3)\n"
         "  --version           print the version\n"
         "  -h, --help          print this help\n"
         "\n"
         "Configuration: the nearest .gradlint.yaml above each file (Checks,\n"
         "WarningsAsErrors, InheritParentConfig, CheckOptions); --checks and\n"
         "--warnings-as-errors apply after it.\n"
         "\n"
         "Without -p or --, the compile_commands.json (or compile_flags.txt) nearest\n"
         "above each file is used, or one in a build/ directory beside a directory\n"
         "above it. After --, compiler flags or a whole compiler command (as CMake's\n"
         "CMAKE_CXX_CLANG_TIDY passes it: gradlint takes clang-tidy's convention).\n"
         "When <torch/torch.h> is not on the include path, the bundled LibTorch API\n"
         "model is used.\n"
         "\n"
         "Inputs: only regular files are read. A source file over 64 MiB, a\n"
         ".gradlint.yaml over 16 MiB or a compile_commands.json over 512 MiB, or\n"
         "a FIFO, device, socket or directory in their place, is an error for that\n"
         "file; the other files are analysed.\n"
         "\n"
         "exit status: 0 no findings (or --exit-zero), 1 findings, 2 errors\n";
}

namespace {

bool takeValue(const std::string &arg, const char *flag, int &i, int argc, const char *const *argv,
               std::string &value, std::optional<std::string> &error) {
  std::string prefix = std::string(flag) + "=";
  if (arg.rfind(prefix, 0) == 0) {
    value = arg.substr(prefix.size());
    return true;
  }
  if (arg == flag) {
    if (i + 1 >= argc) {
      error = std::string("option '") + flag + "' needs a value";
      return true;
    }
    value = argv[++i];
    return true;
  }
  return false;
}

/// The cache options, shared by gradlint and `gradlint lsp`; true when `arg` was one.
bool takeCacheOption(const std::string &arg, int &i, int argc, const char *const *argv,
                     Options &options, std::optional<std::string> &error) {
  std::string value;
  if (takeValue(arg, "--cache-dir", i, argc, argv, value, error)) {
    options.cacheDir = value;
  } else if (arg == "--no-cache") {
    options.noCache = true;
  } else if (takeValue(arg, "--cache-max-size", i, argc, argv, value, error)) {
    if (error)
      return true;
    if (std::optional<uint64_t> bytes = parseByteSize(value))
      options.cacheMaxBytes = *bytes;
    else
      error = "invalid cache size '" + value +
              "' (expected bytes with an optional K, M or G "
              "suffix, e.g. --cache-max-size=2G; 0 for no limit)";
  } else {
    return false;
  }
  return true;
}

} // namespace

const char *languageServerUsageText() {
  return R"(usage: gradlint lsp [--cache-dir=<dir>] [--no-cache] [--cache-max-size=<size>]

A language server (LSP 3.17 over stdin and stdout) that shows gradlint's
findings on the unsaved text as you type, with quick fixes. Start it from your
editor's LSP client; it runs beside clangd.

Command line (the editor's settings override these):
  --cache-dir=<dir>        where precompiled preambles are kept
  --no-cache               no precompiled preambles
  --cache-max-size=<size>  bytes, or 500M, 8G; 0: no limit
  -h, --help               this text

Settings (the client's initializationOptions):
  debounceMs          ms to wait after the last change (default 200)
  compileCommandsDir  the folder of compile_commands.json (like -p)
  configFile          a .gradlint.yaml for every file (like --config-file)
  checks              check globs, after the file's configuration
  cacheDir, noCache, cacheMaxSize   as on the command line
  isolation           false: analyse in the server's process (default true)
  timeout             seconds per analysis, 0 for none (default 600)
  memoryLimit         MiB per analysis, 0 for none (default 4096)
)";
}

std::optional<std::string> parseLanguageServerOptions(int argc, const char *const *argv,
                                                      Options &options) {
  std::optional<std::string> error;
  for (int i = 1; i < argc && !error; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || arg == "--help")
      options.help = true;
    else if (!takeCacheOption(arg, i, argc, argv, options, error))
      error =
          "'gradlint lsp' takes only --cache-dir, --no-cache, --cache-max-size and --help; set '" +
          arg + "' in initializationOptions";
  }
  return error;
}

std::optional<std::string> parseOptions(int argc, const char *const *argv, Options &options) {
  std::optional<std::string> error;
  for (int i = 1; i < argc && !error; ++i) {
    std::string arg = argv[i];
    std::string value;
    if (arg == "--") {
      options.haveCompilerArgs = true;
      for (++i; i < argc; ++i)
        options.compilerArgs.push_back(argv[i]);
      break;
    }
    if (arg == "-h" || arg == "--help") {
      options.help = true;
    } else if (arg == "--version") {
      options.version = true;
    } else if (arg == "--list-checks") {
      options.listChecks = true;
    } else if (arg == "--dump-config") {
      options.dumpConfig = true;
    } else if (takeValue(arg, "--config-file", i, argc, argv, value, error)) {
      options.configFile = value;
    } else if (takeValue(arg, "--warnings-as-errors", i, argc, argv, value, error)) {
      options.warningsAsErrors =
          options.warningsAsErrors.empty() ? value : options.warningsAsErrors + "," + value;
    } else if (takeCacheOption(arg, i, argc, argv, options, error)) {
      // --cache-dir, --no-cache, --cache-max-size
    } else if (arg == "--no-prefilter") {
      options.noPrefilter = true;
    } else if (takeValue(arg, "--shard", i, argc, argv, value, error)) {
      if (error)
        break;
      unsigned index = 0, count = 0;
      char slash = 0, extra = 0;
      if (std::sscanf(value.c_str(), "%u%c%u%c", &index, &slash, &count, &extra) != 3 ||
          slash != '/' || index < 1 || count < 1 || index > count || count > 10000)
        error = "invalid --shard '" + value + "' (expected K/N with 1 <= K <= N, e.g. 2/4)";
      options.shardIndex = index;
      options.shardCount = count;
    } else if (arg == "--no-result-cache") {
      options.noResultCache = true;
    } else if (arg == "--verbose") {
      options.verbose = true;
    } else if (arg == "--dump-model") {
      options.dumpModel = true;
    } else if (arg == "--no-isolation") {
      options.isolate = false;
    } else if (takeValue(arg, "--timeout", i, argc, argv, value, error)) {
      char *end = nullptr;
      double seconds = std::strtod(value.c_str(), &end);
      if (value.empty() || *end || !(seconds >= 0) || seconds > 1e6)
        error =
            "invalid timeout '" + value + "' (expected seconds, e.g. --timeout=60; 0 for no limit)";
      else
        options.timeoutSeconds = seconds;
      options.timeoutGiven = true;
    } else if (takeValue(arg, "--memory-limit", i, argc, argv, value, error)) {
      char *end = nullptr;
      unsigned long long mebibytes = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || *end || !std::isdigit(static_cast<unsigned char>(value[0])) ||
          mebibytes > (1ull << 30))
        error = "invalid memory limit '" + value +
                "' (expected MiB, e.g. --memory-limit=8192; 0 for no limit)";
      else
        options.memoryLimitMiB = mebibytes;
      options.memoryLimitGiven = true;
    } else if (arg == "--confirm") {
      options.confirm = true;
    } else if (takeValue(arg, "--diff", i, argc, argv, value, error)) {
      options.diffRange = value;
    } else if (takeValue(arg, "--diff-file", i, argc, argv, value, error)) {
      options.diffFile = value;
    } else if (arg == "--fix") {
      options.fix = true;
    } else if (arg == "--fix-dry-run") {
      options.fixDryRun = true;
    } else if (arg == "--unsafe-fixes") {
      options.unsafeFixes = true;
    } else if (arg == "--inconclusive") {
      options.inconclusive = true;
    } else if (takeValue(arg, "--export-fixes", i, argc, argv, value, error)) {
      options.exportFixesFile = value;
    } else if (arg == "--report-unused-suppressions") {
      options.reportUnusedSuppressions = true;
    } else if (takeValue(arg, "--plot", i, argc, argv, value, error)) {
      options.plotFile = value;
      options.confirm = true;
    } else if (takeValue(arg, "--emit-runs", i, argc, argv, value, error)) {
      options.emitRunsFile = value;
    } else if (takeValue(arg, "--windows", i, argc, argv, value, error)) {
      char *end = nullptr;
      long windows = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end || windows < 1 || windows > 1000)
        error = "invalid window count '" + value + "'";
      else
        options.windows = static_cast<int>(windows);
    } else if (takeValue(arg, "--backend", i, argc, argv, value, error)) {
      if (value != "auto" && value != "cpu" && value != "cuda")
        error = "unknown backend '" + value + "' (expected auto, cpu or cuda)";
      options.backend = value;
    } else if (takeValue(arg, "--output-file", i, argc, argv, value, error) ||
               takeValue(arg, "-o", i, argc, argv, value, error)) {
      if (!error && value.empty())
        error = "--output-file needs a file name";
      options.outputFile = value;
    } else if (arg == "--exit-zero") {
      options.exitZero = true;
    } else if (arg == "--statistics") {
      options.statistics = true;
    } else if (arg == "--color") {
      options.color = Options::Color::Always;
    } else if (takeValue(arg, "--color", i, argc, argv, value, error)) {
      if (value == "auto")
        options.color = Options::Color::Auto;
      else if (value == "always")
        options.color = Options::Color::Always;
      else if (value == "never")
        options.color = Options::Color::Never;
      else
        error = "unknown color mode '" + value + "' (expected auto, always or never)";
    } else if (takeValue(arg, "--extra-arg", i, argc, argv, value, error)) {
      options.extraArgs.push_back(value);
    } else if (takeValue(arg, "--extra-arg-before", i, argc, argv, value, error)) {
      options.extraArgsBefore.push_back(value);
    } else if (arg.rfind("-p", 0) == 0 && arg.size() > 2 && arg[2] != '=') {
      options.buildPath = arg.substr(2);
    } else if (takeValue(arg, "-p", i, argc, argv, value, error)) {
      options.buildPath = value;
    } else if (takeValue(arg, "--checks", i, argc, argv, value, error)) {
      options.checks = options.checks.empty() ? value : options.checks + "," + value;
    } else if (takeValue(arg, "--format", i, argc, argv, value, error)) {
      if (error)
        break;
      if (value == "text")
        options.format = OutputFormat::Text;
      else if (value == "json")
        options.format = OutputFormat::Json;
      else if (value == "sarif")
        options.format = OutputFormat::Sarif;
      else if (value == "github")
        options.format = OutputFormat::Github;
      else if (value == "markdown")
        options.format = OutputFormat::Markdown;
      else if (value == "gitlab")
        options.format = OutputFormat::Gitlab;
      else if (value == "junit")
        options.format = OutputFormat::Junit;
      else
        error = "unknown output format '" + value +
                "' (expected text, json, sarif, github, markdown, gitlab or junit)";
    } else if (arg.rfind("-j", 0) == 0 && arg != "-j" && arg.size() > 2 &&
               std::isdigit(static_cast<unsigned char>(arg[2]))) {
      value = arg.substr(2);
      options.jobs = static_cast<unsigned>(std::strtoul(value.c_str(), nullptr, 10));
    } else if (takeValue(arg, "-j", i, argc, argv, value, error) ||
               takeValue(arg, "--jobs", i, argc, argv, value, error)) {
      if (error)
        break;
      char *end = nullptr;
      unsigned long jobs = std::strtoul(value.c_str(), &end, 10);
      if (value.empty() || *end || jobs == 0 || jobs > 256)
        error = "invalid job count '" + value + "'";
      else
        options.jobs = static_cast<unsigned>(jobs);
    } else if (arg.size() > 1 && arg[0] == '-') {
      error = "unknown option '" + arg + "' (see --help)";
    } else {
      options.files.push_back(arg);
    }
  }
  if (options.jobs == 0)
    options.jobs = 1;
  if (!error && options.statistics && options.format != OutputFormat::Text &&
      options.format != OutputFormat::Json)
    error = "--statistics needs --format=text or --format=json";
  // The defaults apply to isolated children only; given explicitly, they need isolation.
  if (!error && !options.isolate && options.timeoutGiven && options.timeoutSeconds > 0)
    error = "--timeout needs isolation; it cannot be used with --no-isolation";
  if (!error && !options.isolate && options.memoryLimitGiven && options.memoryLimitMiB > 0)
    error = "--memory-limit needs isolation; it cannot be used with --no-isolation";
  return error;
}

} // namespace gradlint
