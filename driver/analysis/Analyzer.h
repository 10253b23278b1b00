// Analyses one translation unit: parse with Clang, build the training-loop
// model, run the enabled checks, resolve the findings to file/line/column.
// Loops for --confirm and --emit-runs are only translated here; the caller
// runs them afterwards (runTranslatedLoops), in the same process as the analysis.
#pragma once

#include "driver/analysis/CompilationSetup.h"
#include "driver/analysis/Diagnostics.h"
#include "driver/config/Config.h"

#include "confirm/Confirm.h"
#include "confirm/EmitRuns.h"

#include "runtime/kernels/Backend.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gradlint {

struct FileAnalysis {
  std::vector<Diagnostic> diagnostics;
  std::vector<FileError> errors;
  /// Things the run should say without failing the file: what the API model
  /// lacked when the file was analysed on the AST Clang recovered.
  std::vector<FileError> notes;
  bool usedApiModel = false;
  /// The prefilter found no training loop: not parsed, no findings.
  bool skipped = false;
  /// What an isolated child's preamble cache did (the parent has its own counters).
  struct CacheUse {
    unsigned hits = 0, builds = 0, buildFailures = 0;
    std::string note; ///< a problem with the cache directory, once
    unsigned evictedEntries = 0;
    uint64_t evictedBytes = 0;
    /// What the child learnt that its parent keeps for the next child: keys
    /// whose include prefix does not compile, and an unusable directory.
    std::vector<std::string> failedKeys;
    bool unusable = false;
  } childCacheUse;
  /// The analysis process crashed, timed out or ran out of memory (errors
  /// says which); its findings are unknown.
  bool analysisFailed = false;
  /// The precompiled preamble this parse used, if any (the language server logs it).
  struct PreambleUse {
    bool used = false;
    bool built = false; ///< built for this parse, else reused
    std::string pch;
    std::string reason; ///< "reused", or "built: " and why
  } preambleUse;
  /// Every file the parse read besides the main file (absolute): headers,
  /// including those inside a precompiled preamble (the result cache checks them).
  std::vector<std::string> filesRead;
  /// Every path the parse (and its precompiled preamble's build) looked up and
  /// did not find (absolute): the result is valid only while they stay absent.
  std::vector<std::string> filesAbsent;
  /// Whether filesRead and filesAbsent hold everything the result depends on
  /// besides the file's bytes and command: the parse ran under the lookup
  /// recorder, or the analysis stopped on the file's bytes alone. Errors are
  /// cached only when this is true.
  bool inputsRecorded = false;
  /// Real paths of the diagnostics' files, for de-duplication across TUs.
  std::vector<std::string> realPaths;
  /// --dump-model: the model, as text.
  std::string modelDump;
  /// --emit-runs: every training loop run as written.
  std::vector<LoopRun> loopRuns;

  /// A loop translated for the interpreter (--confirm, --emit-runs), with the
  /// findings it produced; runTranslatedLoops() consumes these (never sent
  /// from an isolated child: they are used up before).
  struct TranslatedLoop {
    Location location;    ///< the loop statement or step function
    bool emitRun = false; ///< --emit-runs runs it
    /// Each check with findings here, in check order, and the index range
    /// [first, second) of those findings in `diagnostics`.
    std::vector<std::pair<std::string, std::pair<size_t, size_t>>> firing;
    size_t loopIndex = 0; ///< its index among the translation unit's loops
    /// --confirm: the loop's own code, and per firing check the code it is
    /// confirmed on (as written and with its fix-it).
    std::shared_ptr<const interp::LoopCode> code;
    std::vector<FindingCode> findingCode;
  };
  std::vector<TranslatedLoop> translatedLoops;
};

/// What the caller wants besides the diagnostics.
struct AnalysisRequest {
  bool dumpModel = false;          ///< --dump-model: FileAnalysis::modelDump
  bool translateDiagnosed = false; ///< --confirm: translate the loops with findings
  bool runEveryLoop = false;       ///< --emit-runs: translate and run every loop
  /// Translate every loop's code (a re-parse of a fixed buffer for --confirm).
  bool translateEveryLoop = false;
  /// --confirm: the backend and the trace length its runs use (the result
  /// cache keeps confirmed analyses under them).
  std::string loopRunSetting;
  /// Whether the result cache may keep the analysis: not a model dump nor
  /// every loop's runs (--emit-runs writes its own file).
  bool resultCacheable() const { return !dumpModel && !runEveryLoop && !translateEveryLoop; }
  /// Any of them needs the whole model: the prefilter does not skip.
  bool wantsWholeModel() const {
    return dumpModel || translateDiagnosed || runEveryLoop || translateEveryLoop;
  }
};

/// `displayName` is the path as the user wrote it.
FileAnalysis analyseFile(const std::string &displayName, CompilationSetup &setup,
                         const FileConfig &config, const AnalysisRequest &request = {});

/// Whether the prefilter skips the file (it cannot hold a training loop), read
/// without parsing: lets the caller avoid starting an isolated analysis.
bool skippedWithoutParsing(const std::string &displayName, CompilationSetup &setup,
                           const AnalysisRequest &request);

/// Where and how the translated loops run, after the analysis.
struct LoopRunSettings {
  const runtime::Backend *confirmBackend = nullptr; ///< --confirm (null: no confirmation)
  std::string confirmBackendName;
  int traceSteps = 0;      ///< --plot: optimizer steps to trace
  int emitRunsWindows = 0; ///< --emit-runs: windows to run each loop as written (0: none)
  const runtime::Backend *emitRunsBackend = nullptr;
};

/// Runs `analysis.translatedLoops` on the reference runtime: fills each
/// diagnosis's confirmation and `loopRuns`, then drops the translated loops.
void runTranslatedLoops(FileAnalysis &analysis, const LoopRunSettings &settings);

/// What `cache` did in this process (evictions since the given counts), for
/// an isolated child to hand to its parent.
FileAnalysis::CacheUse cacheUseOf(PreambleCache &cache, unsigned evictedEntriesBefore = 0,
                                  uint64_t evictedBytesBefore = 0);

/// The same for an editor's unsaved buffer: `contents` stands in for the file
/// at `path` (absolute; it need not exist on disk yet).
FileAnalysis analyseUnsavedFile(const std::string &path, const std::string &contents,
                                CompilationSetup &setup, const FileConfig &config);

} // namespace gradlint
