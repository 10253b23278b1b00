#include "confirm/EmitRuns.h"

#include "confirm/interpreter/Execute.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <stdexcept>

namespace gradlint {

LoopRun runCodeAsWritten(const interp::LoopCode &code, int windows, const std::string &file,
                         unsigned line, const runtime::Backend &backend) {
  LoopRun run;
  run.file = file;
  run.line = line;
  run.windows = windows;
  interp::ExecutionSetting setting; // the fixtures' setting: seed 7, MLP 8-16-4
  setting.windows = windows;
  setting.backend = &backend;
  auto started = std::chrono::steady_clock::now();
  interp::Execution execution = interp::execute(code, setting);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  run.accumulationSteps = execution.accumulationSteps;
  run.worldSize = execution.worldSize;
  run.program = "the source, interpreted: " + std::to_string(execution.microBatches) +
                " micro-batches, " + std::to_string(execution.steps) + " steps of " +
                execution.optimizer.written;
  run.problem = execution.problem;
  if (run.problem.empty())
    run.parameters = execution.windowTrace.back();
  return run;
}

nlohmann::ordered_json loopRunToJson(const LoopRun &run) {
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

LoopRun loopRunFromJson(const nlohmann::ordered_json &json) {
  LoopRun run;
  json.at("file").get_to(run.file);
  json.at("line").get_to(run.line);
  json.at("program").get_to(run.program);
  json.at("accumulation_steps").get_to(run.accumulationSteps);
  json.at("world_size").get_to(run.worldSize);
  json.at("windows").get_to(run.windows);
  json.at("parameters").get_to(run.parameters);
  json.at("problem").get_to(run.problem);
  json.at("seconds").get_to(run.seconds);
  return run;
}

std::string loopRunsDocument(const std::vector<LoopRun> &runs) {
  // Keys in alphabetical order (nlohmann::json sorts them), as the fixtures read them.
  nlohmann::json array = nlohmann::json::array();
  for (const LoopRun &run : runs) {
    nlohmann::json entry = loopRunToJson(run);
    if (run.problem.empty())
      entry.erase("problem");
    array.push_back(std::move(entry));
  }
  return array.dump(1) + "\n";
}

} // namespace gradlint
