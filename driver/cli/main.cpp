// gradlint: finds gradient-accumulation bugs in C++ LibTorch training loops.
#include "checks/Check.h"
#include "confirm/Plot.h"
#include "driver/analysis/Analyzer.h"
#include "driver/analysis/BoundedFile.h"
#include "driver/analysis/CompilationSetup.h"
#include "driver/analysis/Isolation.h"
#include "driver/cache/PreambleCache.h"
#include "driver/cache/ResultCache.h"

#include "driver/cli/DiffFilter.h"
#include "driver/cli/Options.h"
#include "driver/config/CheckSelection.h"
#include "driver/config/Config.h"
#include "driver/fix/AtomicWrite.h"
#include "driver/fix/FixApplier.h"
#include "driver/lsp/LanguageServer.h"
#include "driver/output/Output.h"
#include "driver/output/SarifMerge.h"
#include "llvm/Support/Path.h"

#include "driver/cli/Progress.h"
#include "driver/config/Rules.h"
#include "driver/config/Suppressions.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Signals.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <algorithm>
#include <atomic>
#include <iostream>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

using namespace gradlint;

namespace {

constexpr int kPlotSteps = 10;

void reportFixSummary(const FixReport &fixes, const Options &options) {
  if (options.fix)
    std::cerr << "gradlint: applied " << fixes.applied << " fix" << (fixes.applied == 1 ? "" : "es")
              << " to " << fixes.filesChanged << " file" << (fixes.filesChanged == 1 ? "" : "s")
              << '\n';
  if (fixes.skippedUnsafe)
    std::cerr << "gradlint: note: " << fixes.skippedUnsafe
              << " unsafe fix(es) not applied; --unsafe-fixes applies them\n";
  if (fixes.refusedOverlap)
    std::cerr << "gradlint: note: " << fixes.refusedOverlap
              << " fix(es) not applied: they overlap another fix; run --fix again\n";
}

/// The cache's problem (once), and with --verbose what the prefilter and the
/// cache did.
void reportSpeedNotes(const std::vector<std::string> &files,
                      const std::vector<FileAnalysis> &analyses,
                      const std::vector<std::string> &resultReasons, CompilationSetup &setup,
                      const ResultCache *results, bool verbose) {
  PreambleCache *cache = setup.preambleCache();
  // This process's cache (--no-isolation) plus what the isolated children's did.
  FileAnalysis::CacheUse total;
  if (cache)
    total = cacheUseOf(*cache);
  for (const FileAnalysis &analysis : analyses) {
    total.hits += analysis.childCacheUse.hits;
    total.builds += analysis.childCacheUse.builds;
    total.buildFailures += analysis.childCacheUse.buildFailures;
    total.evictedEntries += analysis.childCacheUse.evictedEntries;
    total.evictedBytes += analysis.childCacheUse.evictedBytes;
    if (total.note.empty())
      total.note = analysis.childCacheUse.note;
  }
  if (!total.note.empty())
    std::cerr << "gradlint: note: " << total.note << '\n';
  if (!verbose)
    return;
  size_t skipped = std::count_if(analyses.begin(), analyses.end(),
                                 [](const FileAnalysis &a) { return a.skipped; });
  std::cerr << "gradlint: note: skipped " << skipped << " file(s) without a training loop\n";
  // Per file, why each cache was used or not.
  for (size_t i = 0; i < analyses.size(); ++i) {
    if (results && !resultReasons[i].empty())
      std::cerr << "gradlint: note: " << files[i] << ": result cache: " << resultReasons[i] << '\n';
    if (analyses[i].preambleUse.used)
      std::cerr << "gradlint: note: " << files[i] << ": precompiled preamble "
                << llvm::sys::path::filename(analyses[i].preambleUse.pch).str() << ": "
                << analyses[i].preambleUse.reason << '\n';
  }
  if (cache)
    std::cerr << "gradlint: note: precompiled preambles: " << total.hits << " reused, "
              << total.builds << " built, " << total.buildFailures << " failed to build; "
              << total.evictedEntries << " evicted (" << total.evictedBytes
              << " bytes) to keep the cache under --cache-max-size\n";
  if (results)
    std::cerr << "gradlint: note: results of unchanged files: " << results->hits << " reused, "
              << results->misses << " analysed; " << results->pathsChecked
              << " paths checked (headers by status or hash, absent paths stat'ed); lookups took "
              << (results->lookupMicros + 500) / 1000 << " ms\n";
}

/// Narrows the options of an isolated child to its one file. The parent alone
/// reads diffs (and stdin) and writes outputs, so the child drops those.
void restrictToChildFile(const ChildRequest &child, Options &options) {
  options.files = {child.file};
  options.diffRange.clear();
  options.diffFile.clear();
  options.fix = options.fixDryRun = false;
  options.exportFixesFile.clear();
  options.jobs = 1;
  options.shardIndex = options.shardCount = 0;
  if (!child.command.empty())
    options.buildPath.clear(); // the parent sent the command: no database to read
}

/// What the compilation setup takes from the command line (`gradlint lsp`'s too).
SetupOptions setupOptionsOf(const Options &options) {
  SetupOptions setup;
  setup.buildPath = options.buildPath;
  setup.haveCompilerArgs = options.haveCompilerArgs;
  setup.compilerArgs = options.compilerArgs;
  setup.extraArgs = options.extraArgs;
  setup.extraArgsBefore = options.extraArgsBefore;
  setup.noCache = options.noCache;
  setup.cacheDir = options.cacheDir;
  setup.cacheMaxBytes = options.cacheMaxBytes;
  setup.noPrefilter = options.noPrefilter;
  return setup;
}

int usageError(const std::string &message) {
  std::cerr << "gradlint: error: " << message << '\n';
  return 2;
}

} // namespace

/// gradlint merge-sarif [-o <file>] <log>...: the shards' SARIF logs as one.
int runMergeSarif(int argc, char **argv) {
  std::vector<std::string> inputs;
  std::string outputFile;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::cout << "usage: gradlint merge-sarif [-o <file>] <log.sarif>...\n\n"
                   "Merges SARIF logs written by gradlint --format=sarif (the shards of\n"
                   "--shard=K/N) into one log with one run, for GitHub code scanning.\n";
      return 0;
    }
    if ((arg == "-o" || arg == "--output-file") && i + 1 < argc)
      outputFile = argv[++i];
    else if (arg.rfind("--output-file=", 0) == 0)
      outputFile = arg.substr(14);
    else if (arg.size() > 1 && arg[0] == '-')
      return usageError("merge-sarif: unknown option '" + arg + "'");
    else
      inputs.push_back(arg);
  }
  if (inputs.empty())
    return usageError("merge-sarif: no SARIF logs given");
  std::string merged;
  if (std::optional<FileError> error = mergeSarif(inputs, merged)) {
    std::cerr << error->file << ": error: " << error->message << '\n';
    return 2;
  }
  if (outputFile.empty()) {
    std::cout << merged;
  } else if (auto error = writeFileAtomically(outputFile, merged, "the merged log")) {
    std::cerr << outputFile << ": error: " << *error << '\n';
    return 2;
  }
  return 0;
}

int main(int argc, char **argv) {
  // A crash prints Clang's stack trace and what it was parsing (an isolated
  // child's goes to the log its error message names).
  llvm::sys::PrintStackTraceOnErrorSignal(argv[0]);
  llvm::setBugReportMsg("gradlint crashed. Please report it with the file it was analysing "
                        "and this stack trace.\n");
  // `gradlint lsp`: the language server; it is configured by the editor
  // (initializationOptions), and takes only the cache options on its command line.
  if (argc >= 2 && std::string(argv[1]) == "merge-sarif")
    return runMergeSarif(argc - 1, argv + 1);
  if (argc >= 2 && std::string(argv[1]) == "lsp") {
    Options serverOptions;
    if (auto error = parseLanguageServerOptions(argc - 1, argv + 1, serverOptions))
      return usageError(*error);
    if (serverOptions.help) {
      std::cout << languageServerUsageText();
      return 0;
    }
    return runLanguageServer(std::cin, std::cout, std::cerr, setupOptionsOf(serverOptions));
  }

  std::vector<const char *> args(argv, argv + argc);
  ChildRequest child = takeChildRequest(args);
  Options options;
  if (auto error = parseOptions(static_cast<int>(args.size()), args.data(), options))
    return usageError(*error);
  if (child.active)
    restrictToChildFile(child, options);
  if (options.help) {
    std::cout << usageText();
    return 0;
  }
  if (options.version) {
    std::cout << "gradlint " << GRADLINT_VERSION << '\n';
    return 0;
  }

  std::vector<std::string> available;
  for (const CheckFactory &factory : allChecks())
    available.push_back(factory.id);
  std::vector<std::string> enabled;
  if (auto error = selectChecks(options.checks, available, enabled))
    return usageError(*error);
  {
    std::vector<std::string> ignored;
    if (auto error = selectChecks(options.warningsAsErrors, available, ignored))
      return usageError("--warnings-as-errors: " + *error);
  }
  if (!options.configFile.empty() && !llvm::sys::fs::exists(options.configFile))
    return usageError("--config-file: " + options.configFile + " does not exist");
  ConfigResolver configs(available, options.configFile, options.checks, options.warningsAsErrors,
                         options.inconclusive);

  if (options.listChecks || (options.dumpConfig && options.files.empty())) {
    // Without files, the configuration that applies in the current directory.
    FileConfig here;
    if (auto error = configs.configFor("gradlint-current-directory.cpp", here)) {
      std::cerr << error->where() << ": error: " << error->message << '\n';
      return 2;
    }
    if (options.dumpConfig) {
      std::cout << dumpConfig(here);
      return 0;
    }
    enabled = here.enabledChecks;
  }
  if (options.listChecks) {
    std::cout << "Enabled checks:\n";
    for (const std::string &id : enabled) {
      const RuleInfo *rule = findRule(id);
      std::cout << "    " << id;
      if (rule)
        std::cout << "  " << rule->summary;
      std::cout << '\n';
    }
    return 0;
  }
  ChangedLines changed;
  bool diffMode = !options.diffRange.empty() || !options.diffFile.empty();
  if (diffMode) {
    if (auto error = loadChangedLines(options.diffRange, options.diffFile, changed))
      return usageError(*error);
    // Like clang-tidy-diff: without file arguments, the changed C++ sources.
    if (options.files.empty()) {
      options.files = changed.changedSources();
      if (options.files.empty()) {
        std::cerr << "gradlint: note: the diff changes no C++ source file\n";
        return 0;
      }
    }
  }
  if (options.files.empty())
    return usageError("no input files (see --help)");
  // --shard=K/N: every N-th file of the sorted list, from the K-th, so that
  // the jobs of a CI matrix split the same list the same way.
  if (options.shardCount > 0) {
    std::vector<std::string> sorted = options.files;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    options.files.clear();
    for (size_t i = options.shardIndex - 1; i < sorted.size(); i += options.shardCount)
      options.files.push_back(sorted[i]);
  }

  // Every input is bounded before anything reads it: a source that is a FIFO,
  // a device, a socket or a directory, or larger than the cap, is an error
  // for that file alone. (This process must never block in open() nor read
  // without end: no --timeout or --memory-limit protects it.)
  RunResult result;
  std::vector<bool> rejected(options.files.size(), false);
  for (size_t i = 0; i < options.files.size(); ++i)
    if (auto failure = checkBoundedFile(options.files[i], kMaxSourceBytes, "a source file")) {
      rejected[i] = true;
      result.errors.push_back({options.files[i], failure->problem + "; not analysed"});
    }

  // Each file's configuration; a file whose configuration is broken is not
  // analysed, and the broken file is reported once.
  std::vector<FileConfig> fileConfigs(options.files.size());
  std::vector<bool> configured(options.files.size(), false);
  {
    std::set<std::string> reported;
    for (size_t i = 0; i < options.files.size(); ++i) {
      if (rejected[i])
        continue;
      std::optional<FileError> error = configs.configFor(options.files[i], fileConfigs[i]);
      configured[i] = !error;
      if (error && reported.insert(error->where() + error->message).second)
        result.errors.push_back(*error);
    }
  }
  if (options.dumpConfig) {
    for (size_t i = 0; i < options.files.size(); ++i)
      if (configured[i])
        std::cout << (options.files.size() > 1 ? "== " + options.files[i] + "\n" : "")
                  << dumpConfig(fileConfigs[i]);
    for (const FileError &error : result.errors)
      std::cerr << error.where() << ": error: " << error.message << '\n';
    return result.errors.empty() ? 0 : 2;
  }
  // NOLINT(check) comments are judged against every check that ran somewhere.
  enabled.clear();
  for (size_t i = 0; i < options.files.size(); ++i)
    for (const std::string &id : fileConfigs[i].enabledChecks)
      if (std::find(enabled.begin(), enabled.end(), id) == enabled.end())
        enabled.push_back(id);

  AnalysisRequest request;
  request.dumpModel = options.dumpModel;
  request.translateDiagnosed = options.confirm;
  request.runEveryLoop = !options.emitRunsFile.empty();
  LoopRunSettings loopRuns;
  const runtime::Backend *backend = nullptr;
  if (options.confirm || !options.emitRunsFile.empty()) {
    runtime::BackendKind kind = runtime::parseBackendKind(options.backend);
    if (kind == runtime::BackendKind::Cuda && !runtime::cudaAvailable())
      return usageError("--backend=cuda: no CUDA device is available");
    if (kind == runtime::BackendKind::Auto && !runtime::cudaAvailable())
      std::cerr << "gradlint: note: no CUDA device found; running the loops on the CPU\n";
    backend = &runtime::selectBackend(kind);
  }
  if (options.confirm) {
    loopRuns.confirmBackend = backend;
    loopRuns.confirmBackendName = backend == runtime::cudaBackend() && backend ? "cuda" : "cpu";
    if (!options.plotFile.empty())
      loopRuns.traceSteps = kPlotSteps;
    request.loopRunSetting =
        loopRuns.confirmBackendName + ", traces of " + std::to_string(loopRuns.traceSteps);
  }

  if (!options.emitRunsFile.empty()) {
    loopRuns.emitRunsWindows = options.windows;
    loopRuns.emitRunsBackend = backend;
  }

  SetupOptions setupOptions = setupOptionsOf(options);
  std::unique_ptr<CompilationSetup> setup;
  if (auto error = CompilationSetup::create(setupOptions, setup)) {
    result.errors.push_back({options.buildPath, *error});
    setupOptions.buildPath.clear();
    CompilationSetup::create(setupOptions, setup);
  }

  // A compilation database found above a file (no -p) that is no regular file
  // or too large: not read, and the files below it are not analysed.
  if (!child.active) {
    std::set<std::string> reported;
    for (size_t i = 0; i < options.files.size(); ++i) {
      if (!configured[i])
        continue;
      auto problem = setup->databaseProblem(CompilationSetup::absolutePath(options.files[i]));
      if (!problem)
        continue;
      configured[i] = false;
      if (reported.insert(problem->first).second)
        result.errors.push_back({problem->first, problem->second});
    }
  }

  if (child.active && !child.command.empty()) {
    std::optional<FileCommand> command = decodeCommand(child.command);
    if (!command)
      return 3; // not from a gradlint parent
    setup->presetCommand(CompilationSetup::absolutePath(options.files[0]), std::move(*command));
  }
  if (child.active)
    return serveChild(child, options.memoryLimitMiB, [&] {
      // Confirmation runs after the analysis, in the same (isolated) process.
      FileAnalysis analysis = analyseFile(options.files[0], *setup, fileConfigs[0], request);
      runTranslatedLoops(analysis, loopRuns);
      if (PreambleCache *cache = setup->preambleCache())
        analysis.childCacheUse = cacheUseOf(*cache);
      return analysis;
    });
  // Children that run loops are fresh processes: the loops may create a CUDA
  // context, which a forked child cannot use once this process has one.
  bool runsLoops = options.confirm || !options.emitRunsFile.empty();
  Isolator isolator(
      argc, argv,
      {options.isolate, options.timeoutSeconds, options.memoryLimitMiB, /*freshProcess=*/runsLoops},
      setup->preambleCache());
  // Analyses of unchanged files come from the result cache, confirmed ones
  // (--confirm, --plot) under their backend; --emit-runs and a model dump are
  // always computed.
  std::unique_ptr<ResultCache> results;
  std::string cacheRoot =
      options.cacheDir.empty() ? PreambleCache::defaultDirectory() : options.cacheDir;
  if (!options.noCache && !options.noResultCache && !cacheRoot.empty() && request.resultCacheable())
    results = std::make_unique<ResultCache>(cacheRoot + "/results");

  std::vector<FileAnalysis> analyses(options.files.size());
  std::vector<std::string> resultReasons(options.files.size()); ///< --verbose
  std::atomic<size_t> next{0};
  {
    Progress progress(options.files.size(), progressWanted(options.files.size()));
    auto worker = [&] {
      for (size_t i = next++; i < options.files.size(); i = next++) {
        progress.started(options.files[i]);
        if (!configured[i]) {
          progress.finished();
          continue;
        }
        std::string command;
        ResultCache::Key key;
        std::optional<FileAnalysis> cached;
        {
          // The state a forked child uses (the setup's maps, the caches) is
          // changed under forkMutex only: no child starts with a lock held.
          std::lock_guard<std::mutex> forking(forkMutex());
          // The prefilter runs here, so that a skipped file starts no child.
          if (skippedWithoutParsing(options.files[i], *setup, request)) {
            analyses[i].skipped = true;
          } else {
            std::string absolute = CompilationSetup::absolutePath(options.files[i]);
            command = encodeCommand(setup->commandFor(absolute));
            if (results) {
              key = results->keyFor(absolute, command + options.files[i],
                                    dumpConfig(fileConfigs[i]), request);
              if (!key.digest.empty())
                cached = results->lookup(key, resultReasons[i]);
            }
          }
        }
        if (cached) {
          analyses[i] = std::move(*cached);
        } else if (!analyses[i].skipped) {
          analyses[i] = isolator.analyse(
              options.files[i],
              [&] {
                FileAnalysis analysis =
                    analyseFile(options.files[i], *setup, fileConfigs[i], request);
                runTranslatedLoops(analysis, loopRuns);
                return analysis;
              },
              command);
          if (!key.digest.empty()) {
            std::lock_guard<std::mutex> forking(forkMutex());
            results->store(key, analyses[i]);
          }
        }
        progress.finished();
      }
    };
    unsigned jobs = std::min<size_t>(options.jobs, options.files.size());
    std::vector<std::thread> threads;
    for (unsigned j = 1; j < jobs; ++j)
      threads.emplace_back(worker);
    worker();
    for (std::thread &thread : threads)
      thread.join();
  }

  if (options.dumpModel) {
    for (size_t i = 0; i < analyses.size(); ++i)
      std::cout << "== " << options.files[i] << "\n" << analyses[i].modelDump;
  }

  // A header shared by several TUs reports its findings once.
  std::set<std::tuple<std::string, std::string, unsigned, unsigned>> seen;
  // NOLINT comments silence findings for every format; only SARIF shows them.
  SuppressionIndex suppressions(available, enabled);
  std::vector<Diagnostic> suppressed;
  bool usedApiModel = false;
  for (size_t file = 0; file < analyses.size(); ++file) {
    FileAnalysis &analysis = analyses[file];
    usedApiModel = usedApiModel || analysis.usedApiModel;
    std::vector<std::pair<Diagnostic, std::string>> ordered;
    for (size_t i = 0; i < analysis.diagnostics.size(); ++i)
      ordered.emplace_back(analysis.diagnostics[i], analysis.realPaths[i]);
    std::stable_sort(ordered.begin(), ordered.end(), [](const auto &a, const auto &b) {
      return std::tie(a.second, a.first.location.line, a.first.location.column, a.first.check) <
             std::tie(b.second, b.first.location.line, b.first.location.column, b.first.check);
    });
    for (auto &[diagnostic, real] : ordered) {
      if (!seen.insert(
                   {real, diagnostic.check, diagnostic.location.line, diagnostic.location.column})
               .second)
        continue;
      // A conditional finding stays out unless asked for; a NOLINT that names
      // it still counts as used.
      bool shown = !diagnostic.conditional || fileConfigs[file].inconclusive;
      if (suppressions.suppresses(diagnostic, real)) {
        if (shown)
          suppressed.push_back(std::move(diagnostic));
      } else if (shown) {
        result.diagnostics.push_back(std::move(diagnostic));
      } else {
        ++result.hiddenConditional;
      }
    }
    for (FileError &error : analysis.errors)
      result.errors.push_back(std::move(error));
    for (FileError &note : analysis.notes)
      result.notes.push_back(std::move(note));
  }
  for (size_t i = 0; i < options.files.size(); ++i)
    if (configured[i] && analyses[i].errors.empty())
      suppressions.addInputFile(options.files[i], options.files[i]);
  for (FileError &error : suppressions.directiveErrors())
    result.errors.push_back(std::move(error));
  if (options.reportUnusedSuppressions)
    for (Diagnostic &unused : suppressions.unusedSuppressions())
      result.diagnostics.push_back(std::move(unused));
  result.files = static_cast<unsigned>(options.files.size());
  result.fileNames = options.files;
  if (diffMode) {
    keepChangedLines(result.diagnostics, changed);
    keepChangedLines(suppressed, changed);
  }
  if (!options.emitRunsFile.empty()) {
    std::vector<LoopRun> runs;
    for (FileAnalysis &analysis : analyses)
      runs.insert(runs.end(), analysis.loopRuns.begin(), analysis.loopRuns.end());
    if (auto error =
            writeFileAtomically(options.emitRunsFile, loopRunsDocument(runs), "the loop runs"))
      result.errors.push_back({options.emitRunsFile, *error});
  }
  if (!options.plotFile.empty()) {
    std::vector<PlotPanel> panels;
    for (const Diagnostic &diagnostic : result.diagnostics)
      if (diagnostic.confirmation)
        panels.push_back({diagnostic.location.file, diagnostic.location.line, diagnostic.check,
                          &*diagnostic.confirmation,
                          confirmationPlanOf(diagnostic.check).countsAllReduces});
    if (auto error = writeFileAtomically(options.plotFile, renderPlot(panels), "the plot"))
      result.errors.push_back({options.plotFile, *error});
  }

  if (options.fix || options.fixDryRun || !options.exportFixesFile.empty()) {
    FixReport fixes = processFixes(
        result, {options.fix, options.fixDryRun, options.unsafeFixes, options.exportFixesFile});
    for (FileError &error : fixes.errors)
      result.errors.push_back(std::move(error));
    if (options.fixDryRun) {
      // Like `ruff --diff`: the diff alone on stdout, exit 1 when it is not empty.
      std::cout << fixes.diff;
      for (const FileError &error : result.errors)
        std::cerr << error.where() << ": error: " << error.message << '\n';
      if (!result.errors.empty())
        return 2;
      return fixes.diff.empty() ? 0 : 1;
    }
    reportFixSummary(fixes, options);
  }

  reportSpeedNotes(options.files, analyses, resultReasons, *setup, results.get(), options.verbose);
  if (usedApiModel)
    std::cerr << "gradlint: note: <torch/torch.h> is not on the include path; using the "
                 "bundled LibTorch API model ("
              << CompilationSetup::apiModelDir() << ")\n";
  // --output-file: the report is built here and written whole (or not at all).
  std::ostringstream buffered;
  std::ostream &out = options.outputFile.empty() ? std::cout : buffered;
  if (options.statistics) {
    writeStatistics(result, options.format == OutputFormat::Json, out);
  } else if (options.format == OutputFormat::Json) {
    writeJson(result, out);
  } else if (options.format == OutputFormat::Sarif) {
    writeSarif(result, suppressed, out);
  } else if (options.format == OutputFormat::Github) {
    writeGithub(result, out);
  } else if (options.format == OutputFormat::Markdown) {
    writeMarkdown(result, suppressed.size(), options.confirm, out);
  } else if (options.format == OutputFormat::Gitlab) {
    writeGitlab(result, out);
  } else if (options.format == OutputFormat::Junit) {
    writeJunit(result, out);
  } else {
    bool color = options.color == Options::Color::Always ||
                 (options.color == Options::Color::Auto && options.outputFile.empty() &&
                  llvm::sys::Process::StandardOutIsDisplayed() && !std::getenv("NO_COLOR"));
    writeText(result, out, color);
  }
  if (options.format == OutputFormat::Text && !options.statistics && result.hiddenConditional)
    std::cerr << "gradlint: " << result.hiddenConditional << " conditional finding"
              << (result.hiddenConditional == 1 ? "" : "s")
              << " not shown: each holds only for values the code does not show (a batch "
                 "count); --inconclusive shows them\n";
  if (options.format == OutputFormat::Text || options.statistics) {
    for (const FileError &note : result.notes)
      std::cerr << note.where() << ": note: " << note.message << '\n';
    for (const FileError &error : result.errors)
      std::cerr << error.where() << ": error: " << error.message << '\n';
  }
  if (!options.outputFile.empty())
    if (auto error = writeFileAtomically(options.outputFile, buffered.str(), "the report")) {
      std::cerr << options.outputFile << ": error: " << *error << '\n';
      return 2;
    }
  if (!result.errors.empty())
    return 2;
  // Findings that --fix removed no longer fail the run.
  bool remaining = std::any_of(result.diagnostics.begin(), result.diagnostics.end(),
                               [](const Diagnostic &d) { return !d.fixApplied; });
  return remaining && !options.exitZero ? 1 : 0;
}
