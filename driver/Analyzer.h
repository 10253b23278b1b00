// Analyses one translation unit: parse with Clang, build the training-loop
// model, run the enabled checks, resolve the findings to file/line/column.
#pragma once

#include "CompilationSetup.h"
#include "Config.h"
#include "Diagnostics.h"
#include "EmitRuns.h"

#include "kernels/Backend.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gradlint {

struct FileAnalysis {
  std::vector<Diagnostic> diagnostics;
  std::vector<FileError> errors;
  bool usedApiModel = false;
  /// The prefilter found no training loop: not parsed, no findings.
  bool skipped = false;
  /// What an isolated child's preamble cache did (the parent has its own counters).
  struct CacheUse {
    unsigned hits = 0, builds = 0, buildFailures = 0;
    std::string note; ///< a problem with the cache directory, once
    unsigned evictedEntries = 0;
    uint64_t evictedBytes = 0;
  } childCacheUse;
  /// The precompiled preamble this parse used, if any (the language server logs it).
  struct PreambleUse {
    bool used = false;
    bool built = false; ///< built for this parse, else reused
    std::string pch;
  } preambleUse;
  /// Real paths of the diagnostics' files, for de-duplication across TUs.
  std::vector<std::string> realPaths;
  /// --dump-model: the model, as text.
  std::string modelDump;
  /// --emit-runs: every training loop run as written.
  std::vector<LoopRun> loopRuns;
};

/// `displayName` is the path as the user wrote it.
/// Where --confirm runs its numbers (null: no confirmation).
struct ConfirmTarget {
  const runtime::Backend *backend = nullptr;
  std::string name;
  int traceSteps = 0; ///< --plot: optimizer steps to trace
  int emitRunsWindows = 0; ///< --emit-runs: windows to run each loop as written (0: none)
  const runtime::Backend *emitRunsBackend = nullptr; ///< where --emit-runs runs them
};

FileAnalysis analyseFile(const std::string &displayName, CompilationSetup &setup,
                         const FileConfig &config, bool dumpModel = false,
                         const ConfirmTarget &confirm = {});

/// Whether the prefilter skips the file (it cannot hold a training loop), read
/// without parsing: lets the caller avoid starting an isolated analysis.
bool skippedWithoutParsing(const std::string &displayName, CompilationSetup &setup,
                           bool dumpModel, const ConfirmTarget &confirm);

/// The same for an editor's unsaved buffer: `contents` stands in for the file
/// at `path` (absolute; it need not exist on disk yet).
FileAnalysis analyseUnsavedFile(const std::string &path, const std::string &contents,
                                CompilationSetup &setup,
                                const FileConfig &config);

} // namespace gradlint
