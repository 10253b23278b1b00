#include "confirm/Confirm.h"

#include "confirm/ProgramFixes.h"

#include "runtime/LoopProgram.h"
#include "runtime/Metrics.h"

#include <cmath>
#include <cstdio>

namespace gradlint {

namespace {

// A loop deviates from the reference beyond float rounding above this...
constexpr double kDeviates = 1e-4;
// ...and matches it below this.
constexpr double kMatches = 1e-5;

std::string format(const char *pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

bool near(double value, double target) {
  return std::abs(value - target) <= 1e-3 * std::max(1.0, std::abs(target));
}

double distance(const std::vector<float> &a, const std::vector<float> &b) {
  double sum = 0.0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    double d = static_cast<double>(a[i]) - b[i];
    sum += d * d;
  }
  return std::sqrt(sum);
}

/// ||theta_k - theta_k^ref|| / ||theta_K^ref - theta_0||: the error after step k
/// as a fraction of how far the reference moves in all K steps.
std::vector<double> parameterErrors(const std::vector<std::vector<float>> &trace,
                                    const std::vector<std::vector<float>> &reference) {
  std::vector<double> errors;
  if (reference.empty())
    return errors;
  double travelled = std::max(distance(reference.back(), reference.front()), 1e-30);
  for (size_t k = 0; k < trace.size() && k < reference.size(); ++k)
    errors.push_back(distance(trace[k], reference[k]) / travelled);
  return errors;
}

} // namespace

Confirmation confirmDiagnosis(const LoweredLoop &lowered, const std::vector<std::string> &firing,
                              const std::string &diagnosed, const runtime::Backend &backend,
                              const std::string &backendName, int traceSteps) {
  Confirmation confirmation;
  confirmation.backend = backendName;
  runtime::LoopProgram buggy = lowered.program;
  for (const std::string &other : firing)
    if (other != diagnosed)
      if (const ProgramFix *fix = programFixFor(other))
        (*fix)(buggy);
  confirmation.accumulationSteps = buggy.steps;
  confirmation.worldSize = buggy.worldSize;
  if (!lowered.problem.empty()) {
    confirmation.verdict = "not-executable";
    confirmation.detail = lowered.problem;
    return confirmation;
  }
  const ProgramFix *diagnosedFix = programFixFor(diagnosed);
  if (!diagnosedFix) {
    confirmation.verdict = "not-executable";
    confirmation.detail = "the runtime has no program-level fix for " + diagnosed;
    return confirmation;
  }
  runtime::LoopProgram fixed = buggy;
  (*diagnosedFix)(fixed);

  // Clipping binds only in the experiment whose fix moves a clip: partial sums
  // then exceed the limit (0.3 of the large-batch gradient's norm); elsewhere
  // it must not hide other effects, such as an N-times larger gradient.
  runtime::RunSettings settings;
  // Where each clip runs: when, and before or after step().
  auto clipPositions = [](const runtime::LoopProgram &program) {
    std::vector<std::pair<bool, runtime::OpWhen>> positions;
    size_t step = stepIndex(program);
    for (size_t i = 0; i < program.ops.size(); ++i)
      if (program.ops[i].kind == runtime::OpKind::Clip)
        positions.emplace_back(i < step, program.ops[i].when);
    return positions;
  };
  bool fixMovesClip = clipPositions(buggy) != clipPositions(fixed);
  settings.clipLimit = 1e30;
  if (fixMovesClip) {
    bool byValue = false;
    for (const runtime::LoopOp &op : buggy.ops)
      byValue = byValue || (op.kind == runtime::OpKind::Clip && op.clipByValue);
    std::vector<float> large =
        runtime::largeBatchGradient(buggy.steps, buggy.worldSize, settings, backend);
    double norm = 0.0, maxAbs = 0.0;
    for (float g : large) {
      norm += static_cast<double>(g) * g;
      maxAbs = std::max(maxAbs, static_cast<double>(std::abs(g)));
    }
    // clip_grad_value_ clamps elements, clip_grad_norm_ the total norm.
    settings.clipLimit = 0.3 * (byValue ? maxAbs : std::sqrt(norm));
  }
  runtime::RunMeasurement reference = runtime::runReference(fixed, settings, backend);
  runtime::RunMeasurement asWritten = runtime::runProgram(buggy, settings, backend);
  runtime::RunMeasurement withFix = runtime::runProgram(fixed, settings, backend);
  if (asWritten.stepsTaken == 0 || withFix.stepsTaken == 0) {
    confirmation.verdict = "not-executable";
    confirmation.detail = "step() never runs in the lowered loop (" + buggy.describe() + ")";
    return confirmation;
  }
  runtime::Comparison written =
      runtime::compare(asWritten.appliedGradient, reference.appliedGradient);
  runtime::Comparison fixedComparison =
      runtime::compare(withFix.appliedGradient, reference.appliedGradient);
  confirmation.relErrorBuggy = written.relativeError;
  confirmation.relErrorFixed = fixedComparison.relativeError;
  confirmation.gradNormRatio = written.normRatio;
  confirmation.allreduceCallsPerStep = asWritten.allReduceCallsPerStep;

  bool moreTraffic = asWritten.allReduceCallsPerStep > withFix.allReduceCallsPerStep + 0.5;
  bool deviates = written.relativeError > kDeviates || moreTraffic;
  bool fixMatches = fixedComparison.relativeError < kMatches;
  confirmation.verdict = deviates && fixMatches ? "confirmed" : "not-confirmed";

  // Say what the numbers show, most specific first.
  const int n = buggy.steps, w = buggy.worldSize;
  std::string what;
  bool dividesLoss = false;
  for (const runtime::LoopOp &op : buggy.ops)
    dividesLoss = dividesLoss || (op.kind == runtime::OpKind::Backward && op.dividesBySteps);
  std::vector<float> last = runtime::lastMicroBatchGradient(
      n, w, dividesLoss ? 1.0f / static_cast<float>(n) : 1.0f, settings, backend);
  if (n > 1 && w == 1 && runtime::compare(asWritten.appliedGradient, last).relativeError < kMatches)
    what = std::string("applied gradient equals the last micro-batch's gradient") +
           (dividesLoss ? " / N" : "") + " (N=" + std::to_string(n) +
           "): rel. error vs the large-batch gradient " + format("%.3g", written.relativeError);
  else if (n > 1 && near(written.normRatio, n) && written.cosine > 0.999999)
    what = "applied gradient is " + format("%.3f", written.normRatio) +
           "x the large-batch gradient (N=" + std::to_string(n) + ")";
  else if (w > 1 && near(written.normRatio, 1.0 / w) && written.cosine > 0.999999)
    what = "applied gradient is " + format("%.3f", written.normRatio) +
           "x the large-batch gradient (1/W, W=" + std::to_string(w) + ")";
  else if (moreTraffic)
    what = format("%.0f", asWritten.allReduceCallsPerStep) + " all-reduces per step instead of " +
           format("%.0f", withFix.allReduceCallsPerStep) +
           (written.relativeError > kDeviates
                ? "; applied gradient rel. error " + format("%.3g", written.relativeError)
                : "; the values still match (rel. error " + format("%.1g", written.relativeError) +
                      ")");
  else if (written.relativeError > kDeviates)
    what = "applied gradient deviates from the large-batch gradient: rel. error " +
           format("%.3g", written.relativeError) + ", norm ratio " +
           format("%.3f", written.normRatio);
  else
    what = "the loop as written matches the large-batch gradient (rel. error " +
           format("%.1g", written.relativeError) + ")";
  what += "; with the fix: rel. error " + format("%.1g", fixedComparison.relativeError);
  if (firing.size() > 1)
    what += " (measured with the loop's other findings fixed)";
  if (w > 1 && !runtime::averagesOverRanks(fixed))
    what += " (the loop sums over ranks without dividing by W; so does the reference)";
  if (!lowered.stepsFromCode || (w > 1 && !lowered.worldSizeFromCode))
    what += " (N=" + std::to_string(n) + (w > 1 ? ", W=" + std::to_string(w) : "") +
            " assumed: not constants in the code)";
  confirmation.detail = what;
  if (traceSteps > 0) {
    runtime::RunSettings traced = settings;
    traced.windows = traceSteps;
    std::vector<std::vector<float>> ref =
        runtime::runReference(fixed, traced, backend).parameterTrace;
    confirmation.parameterErrorBuggy =
        parameterErrors(runtime::runProgram(buggy, traced, backend).parameterTrace, ref);
    confirmation.parameterErrorFixed =
        parameterErrors(runtime::runProgram(fixed, traced, backend).parameterTrace, ref);
  }
  return confirmation;
}

} // namespace gradlint
