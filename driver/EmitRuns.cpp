#include "EmitRuns.h"

#include "AtomicWrite.h"

#include "model/Lowering.h"

#include "LoopProgram.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <stdexcept>

namespace gradlint {

LoopRun runLoopAsWritten(const TrainingLoop &loop, const ValueFacts &facts, int windows,
                         const std::string &file, unsigned line,
                         const runtime::Backend &backend) {
  LoopRun run;
  run.file = file;
  run.line = line;
  run.windows = windows;
  LoweredLoop lowered = lowerLoop(loop, &facts);
  run.program = lowered.program.describe();
  run.accumulationSteps = lowered.program.steps;
  run.worldSize = lowered.program.worldSize;
  run.problem = lowered.problem;
  if (!run.problem.empty())
    return run;
  runtime::RunSettings settings; // the fixtures' setting: seed 7, MLP 8-16-4, SGD lr 0.1
  settings.windows = windows;
  try {
    auto started = std::chrono::steady_clock::now();
    run.parameters = runtime::runProgram(lowered.program, settings, backend).parameters;
    run.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  } catch (const std::exception &error) {
    run.problem = error.what();
  }
  return run;
}

nlohmann::json loopRunToJson(const LoopRun &run) {
  return {{"file", run.file},
          {"line", run.line},
          {"program", run.program},
          {"accumulation_steps", run.accumulationSteps},
          {"world_size", run.worldSize},
          {"windows", run.windows},
          {"parameters", run.parameters},
          {"problem", run.problem},
          {"seconds", run.seconds}};
}

std::optional<std::string> writeLoopRuns(const std::vector<LoopRun> &runs,
                                         const std::string &path) {
  nlohmann::json array = nlohmann::json::array();
  for (const LoopRun &run : runs) {
    nlohmann::json entry = loopRunToJson(run);
    if (run.problem.empty())
      entry.erase("problem");
    array.push_back(std::move(entry));
  }
  return writeFileAtomically(path, array.dump(1) + "\n", "the loop runs");
}

} // namespace gradlint
