// What the reference runtime measured for one diagnosis (gradlint --confirm):
// Clang-free, carried on the driver's Diagnostic and rendered by the outputs.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gradlint {

struct Confirmation {
  std::string verdict; ///< "confirmed", "not-confirmed" or "not-executable"
  std::string backend; ///< "cpu" or "cuda"
  int accumulationSteps = 0;
  int worldSize = 0;
  double relErrorBuggy = 0.0;
  double relErrorFixed = 0.0;
  double gradNormRatio = 0.0;
  double allreduceCallsPerStep = 0.0;
  std::string detail; ///< one sentence with the figures
  /// --plot: parameter error vs the reference before step 1 and after each of
  /// K optimizer steps, as a fraction of the reference's distance travelled.
  std::vector<double> parameterErrorBuggy;
  std::vector<double> parameterErrorFixed;
};

/// The one JSON form of a confirmation: the JSON and SARIF outputs show it
/// without the traces; an isolated child sends it with them.
nlohmann::ordered_json confirmationToJson(const Confirmation &confirmation,
                                          bool withTraces = false);
/// Reads confirmationToJson(..., true); throws nlohmann::json::exception.
Confirmation confirmationFromJson(const nlohmann::ordered_json &json);

} // namespace gradlint
