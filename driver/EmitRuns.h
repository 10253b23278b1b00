// gradlint --emit-runs: runs every training loop the analyzer finds on the
// reference runtime as written (no fixes), so that the same program compiled
// against LibTorch can be checked against the runtime (fixtures/).
#pragma once

#include "model/TrainingLoopModel.h"
#include "model/ValueFacts.h"

#include "kernels/Backend.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gradlint {

/// One loop, run as written for some windows: rank 0's parameters after them.
struct LoopRun {
  std::string file;
  unsigned line = 0;
  std::string program;   ///< LoopProgram::describe()
  int accumulationSteps = 0;
  int worldSize = 0;
  int windows = 0;
  std::vector<float> parameters;
  std::string problem;   ///< why it was not run; empty when it was
  double seconds = 0.0;  ///< time runProgram took (for fixtures/benchmark.py)
};

/// Lowers `loop` (with the constants `facts` sees) and runs it on `backend`
/// for `windows` windows.
LoopRun runLoopAsWritten(const TrainingLoop &loop, const ValueFacts &facts, int windows,
                         const std::string &file, unsigned line,
                         const runtime::Backend &backend);

/// Writes the runs as a JSON array, atomically (a temporary file, then rename).
/// Every field of a run, as written by --emit-runs and sent by isolated children.
nlohmann::json loopRunToJson(const LoopRun &run);

std::optional<std::string> writeLoopRuns(const std::vector<LoopRun> &runs,
                                         const std::string &path);

} // namespace gradlint
