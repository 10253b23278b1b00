// gradlint --emit-runs: runs every training loop the analyzer finds on the
// reference runtime as written (no fixes), so that the same program compiled
// against LibTorch can be checked against the runtime (fixtures/).
#pragma once

#include "confirm/interpreter/LoopCode.h"

#include "runtime/kernels/Backend.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gradlint {

/// One loop, run as written for some windows: rank 0's parameters after them.
struct LoopRun {
  std::string file;
  unsigned line = 0;
  std::string program; ///< what ran: the source, interpreted, and its counts
  int accumulationSteps = 0;
  int worldSize = 0;
  int windows = 0;
  std::vector<float> parameters;
  std::string problem;  ///< why it was not run; empty when it was
  double seconds = 0.0; ///< time the run took (for fixtures/benchmark.py)
};

/// Runs the loop's own code (confirm/interpreter) for `windows` windows: what
/// --emit-runs reports, so that the fixtures hold the interpreter to LibTorch.
LoopRun runCodeAsWritten(const interp::LoopCode &code, int windows, const std::string &file,
                         unsigned line, const runtime::Backend &backend);

/// Every field of a run, as an isolated child sends it.
nlohmann::ordered_json loopRunToJson(const LoopRun &run);
/// The inverse; throws nlohmann::json::exception.
LoopRun loopRunFromJson(const nlohmann::ordered_json &json);

/// The --emit-runs document: a JSON array of the runs (no "problem" field
/// when a loop ran).
std::string loopRunsDocument(const std::vector<LoopRun> &runs);

} // namespace gradlint
