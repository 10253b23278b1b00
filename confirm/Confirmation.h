// What the reference runtime measured for one diagnosis (gradlint --confirm):
// Clang-free, carried on the driver's Diagnostic and rendered by the outputs.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace gradlint {

/// A value the confirmation assumed because the code does not give it.
struct ConfirmationAssumption {
  std::string name;
  std::string value;
  std::string why;
};

/// What the loop ran on: the runtime's stand-ins and the code's own optimizer.
struct ConfirmationSetting {
  std::string model;     ///< "mlp 8-16-4 (stand-in for the code's model)"
  std::string loss;      ///< "mse, mean over the micro-batch (stand-in)"
  std::string optimizer; ///< "Adam(lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0)"
  std::string dtype;     ///< "fp32"
  std::string backend;   ///< "cpu" / "cuda"
};

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
  /// The first update's size as written over the large-batch update's.
  double updateRatio = 0.0;
  /// ||theta - theta_ref|| / ||theta_ref - theta_0|| after the run's windows.
  double parameterErrorAsWritten = 0.0;
  double parameterErrorWithFix = 0.0;
  int windows = 0; ///< optimizer steps of the reference the run compared
  /// At the last compared step: the learning rate the loop's optimizer
  /// applied as written and in the reference, and the applied gradient's norm
  /// as written over the reference's.
  double learningRateAsWritten = 0.0;
  double learningRateReference = 0.0;
  double lastStepGradientRatio = 0.0;
  /// Over whole epochs (accum-trailing-micro-batches): the fraction of the
  /// micro-batches whose gradient no step() applied as written, and the
  /// fraction a step() applied only in a later epoch.
  double unsteppedFraction = 0.0;
  double leakedFraction = 0.0;
  /// accum-grad-buffer-double-count: the relative error of the applied
  /// gradient against the window's micro-batch gradients weighted N, N-1, ..., 1
  /// (scaled to its norm); 1 when not measured.
  double triangularFitError = 1.0;
  /// How the fixed loop was made: "fix-it" (the finding's own edit, applied
  /// and re-parsed), "program-level fix" (of the loop's summary), or "none".
  std::string fix;
  std::vector<ConfirmationAssumption> assumptions;
  ConfirmationSetting setting;
  std::vector<std::string> skipped; ///< calls and statements the interpreter did not run
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
