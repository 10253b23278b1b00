#include "confirm/Confirm.h"

#include "confirm/interpreter/Execute.h"

#include "runtime/Metrics.h"
#include "runtime/RunSettings.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

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

/// What a program-level fix does to the run, for the confirmation's text.
std::string programFixWords(ConfirmationPlan::ProgramFix fix) {
  using Fix = ConfirmationPlan::ProgramFix;
  switch (fix) {
  case Fix::ResetRightAfterStep:
    return "its gradient resets replaced by one right after each step()";
  case Fix::DivideLossBySteps: return "every backward()'s loss divided by N";
  case Fix::ClipAtBoundary: return "its clip run once, before each step()";
  case Fix::SyncAtBoundary:
    return "its gradient all-reduce (and the scaling that follows it) run once, before each step()";
  case Fix::AverageOverRanksOnce:
    return "a second division of the gradients by W in a window dropped";
  case Fix::None: break;
  }
  return "no change";
}

/// Windows every confirmation runs (and the reference steps).
constexpr int kConfirmWindows = 3;

double norm(const std::vector<float> &values) {
  double sum = 0.0;
  for (float v : values)
    sum += static_cast<double>(v) * v;
  return std::sqrt(sum);
}

/// The parameter error after `window` windows as a fraction of how far the
/// reference moved by then.
double parameterError(const interp::Execution &run, const interp::Execution &reference,
                      size_t window) {
  if (window >= run.windowTrace.size() || window >= reference.windowTrace.size())
    return 0.0;
  double travelled =
      std::max(distance(reference.windowTrace[window], reference.windowTrace.front()), 1e-30);
  return distance(run.windowTrace[window], reference.windowTrace[window]) / travelled;
}

std::vector<double> errorTrace(const interp::Execution &run, const interp::Execution &reference) {
  std::vector<double> errors;
  double travelled =
      std::max(distance(reference.windowTrace.back(), reference.windowTrace.front()), 1e-30);
  for (size_t k = 0; k < run.windowTrace.size() && k < reference.windowTrace.size(); ++k)
    errors.push_back(distance(run.windowTrace[k], reference.windowTrace[k]) / travelled);
  return errors;
}

bool adaptive(const interp::OptimizerSpec &spec) { return spec.type != "SGD"; }

std::string optimizerWords(const interp::OptimizerSpec &spec) {
  return spec.written.empty() ? spec.type : spec.written;
}

/// The final parameters' distance from the reference's, as a fraction of how
/// far the reference moved.
double finalParameterError(const interp::Execution &run, const interp::Execution &reference) {
  if (run.windowTrace.empty() || reference.windowTrace.empty())
    return 0.0;
  double travelled =
      std::max(distance(reference.windowTrace.back(), reference.windowTrace.front()), 1e-30);
  return distance(run.windowTrace.back(), reference.windowTrace.back()) / travelled;
}

/// The parameter error where each of the reference's first `steps` windows
/// ends, as a fraction of how far the reference moved over them.
std::vector<double> epochErrorTrace(const interp::Execution &run,
                                    const interp::Execution &reference, int steps) {
  std::vector<double> errors;
  size_t last = std::min(static_cast<size_t>(steps), reference.windowEnds.size());
  if (reference.windowTrace.size() <= last || run.microBatchTrace.empty())
    return errors;
  double travelled =
      std::max(distance(reference.windowTrace[last], reference.windowTrace.front()), 1e-30);
  for (size_t k = 0; k <= last; ++k) {
    size_t end = k == 0 ? 0 : static_cast<size_t>(reference.windowEnds[k - 1]);
    const std::vector<float> &params =
        run.microBatchTrace[std::min(end, run.microBatchTrace.size() - 1)];
    errors.push_back(distance(params, reference.windowTrace[k]) / travelled);
  }
  return errors;
}

/// accum-grad-buffer-double-count: whether the applied gradient is the
/// window's micro-batch gradients weighted N, N-1, ..., 1 (up to a scale), in words.
std::string overcountWords(const std::vector<float> &applied, int n, int w,
                           const runtime::RunSettings &data, const runtime::Backend &backend,
                           Confirmation &c) {
  if (n < 2)
    return "";
  std::vector<double> weights;
  std::string listed;
  for (int k = 0; k < n; ++k) {
    weights.push_back(static_cast<double>(n - k) / n);
    if (n <= 8)
      listed += std::to_string(n - k) + (k + 1 < n ? ", " : "");
  }
  std::vector<float> triangular = runtime::weightedWindowGradient(weights, w, data, backend);
  double scale = norm(applied) / std::max(norm(triangular), 1e-30);
  for (float &x : triangular)
    x = static_cast<float>(x * scale);
  c.triangularFitError = runtime::compare(applied, triangular).relativeError;
  if (c.triangularFitError > 1e-4)
    return "";
  return "applied gradient = the window's micro-batch gradients weighted " +
         (listed.empty() ? std::string("N, N - 1, ..., 1") : listed) +
         " (micro-batch k counted N - k + 1 times, N=" + std::to_string(n) + ")" +
         (near(scale, 1.0) ? " / N" : " x " + format("%.3g", scale / n)) + ", fit error " +
         format("%.1e", c.triangularFitError) + "; norm " + format("%.3f", c.gradNormRatio) +
         "x the large-batch gradient";
}

std::string percentOf(int part, int whole) {
  return std::to_string(part) + " of " + std::to_string(whole) + " (" +
         format("%.1f", 100.0 * part / std::max(whole, 1)) + "%)";
}

/// Where the micro-batches of a run over epochs went, in words.
std::string describeFates(const interp::MicroBatchFates &fates, int total) {
  int lost = fates.discarded + fates.leftOver;
  std::string text = percentOf(lost, total) + " micro-batches never reached a step()";
  if (lost > 0) {
    std::vector<std::string> parts;
    if (fates.discarded)
      parts.push_back(std::to_string(fates.discarded) + " discarded by a gradient reset");
    if (fates.leftOver)
      parts.push_back(std::to_string(fates.leftOver) + " still in .grad when the run ended");
    text += " (";
    for (size_t i = 0; i < parts.size(); ++i)
      text += (i ? ", " : "") + parts[i];
    text += ")";
  }
  if (fates.leaked)
    text += ", " + percentOf(fates.leaked, total) +
            " were stepped only in a later epoch's first window";
  return text;
}

/// accum-fp16-grad-accumulation: the loop with its .grad stored in the
/// parameters' half precision (every micro-batch's gradient rounded into the
/// half-precision sum) against the same loop accumulating in float32 (the
/// fix: an fp32 buffer) and the large-batch reference.
Confirmation confirmHalfPrecision(const FindingCode &code, Confirmation c,
                                  const interp::ExecutionSetting &base,
                                  const interp::Execution &written32, int n, int w,
                                  int traceSteps) {
  runtime::DType half =
      code.asWritten->gradientType == "bfloat16" ? runtime::DType::BF16 : runtime::DType::F16;
  interp::ExecutionSetting halfSetting = base;
  halfSetting.accumulationSteps = n;
  halfSetting.worldSize = w;
  halfSetting.data.gradDType = half;
  interp::ExecutionSetting floatSetting = halfSetting;
  floatSetting.data.gradDType = runtime::DType::F32;
  c.setting.dtype = std::string(runtime::dtypeName(half)) +
                    " gradient storage as written (the parameters' dtype), float32 in the fix "
                    "and the reference; the stand-in's forward pass runs in float32";
  c.fix = "program-level fix: the same loop accumulating .grad in float32";
  interp::Execution written = interp::execute(*code.asWritten, halfSetting);
  if (!written.problem.empty()) {
    c.verdict = "not-executable";
    c.detail = written.problem;
    return c;
  }
  const interp::Execution &fixed = written32;
  interp::Execution reference =
      interp::referenceRun(fixed.optimizer, n, w, true, fixed.clip, floatSetting, fixed.scheduler);
  if (w > 1) {
    interp::Execution sum = interp::referenceRun(fixed.optimizer, n, w, false, fixed.clip,
                                                 floatSetting, fixed.scheduler);
    if (runtime::compare(fixed.firstAppliedGradient, sum.firstAppliedGradient).relativeError <
        runtime::compare(fixed.firstAppliedGradient, reference.firstAppliedGradient).relativeError)
      reference = std::move(sum);
  }
  size_t windows = static_cast<size_t>(c.windows);
  runtime::Comparison lost =
      runtime::compare(written.firstAppliedGradient, fixed.firstAppliedGradient);
  c.relErrorBuggy =
      runtime::compare(written.firstAppliedGradient, reference.firstAppliedGradient).relativeError;
  c.relErrorFixed =
      runtime::compare(fixed.firstAppliedGradient, reference.firstAppliedGradient).relativeError;
  c.gradNormRatio = lost.normRatio;
  c.updateRatio = norm(written.firstUpdate) / std::max(norm(reference.firstUpdate), 1e-30);
  c.parameterErrorAsWritten = parameterError(written, reference, windows);
  c.parameterErrorWithFix = parameterError(fixed, reference, windows);
  std::string type = code.asWritten->gradientType;
  std::string measured =
      "accumulating N=" + std::to_string(n) + " micro-batches in " + type +
      " .grad: the applied gradient differs from the float32 sum of the same micro-batches by " +
      format("%.3g", lost.relativeError) + " (relative); parameters after " +
      std::to_string(windows) + " steps off by " + format("%.3g", c.parameterErrorAsWritten) +
      " of the distance moved; with float32 accumulation: " +
      format("%.1g", c.parameterErrorWithFix);
  if (c.parameterErrorAsWritten > kDeviates && c.parameterErrorWithFix < kMatches) {
    c.verdict = "confirmed";
    c.detail = measured;
  } else if (c.parameterErrorAsWritten > kDeviates) {
    c.verdict = "not-confirmed";
    c.detail = measured + "; but float32 accumulation departs from the reference too: the loop "
                          "has another problem";
  } else {
    c.verdict = "not-confirmed";
    c.detail = "no numerical effect in this setting: " + measured +
               " (the stand-in's gradients keep their size over N=" + std::to_string(n) +
               " additions; smaller gradients or a larger N lose more)";
  }
  if (traceSteps > 0) {
    interp::ExecutionSetting traced = halfSetting;
    traced.windows = traceSteps;
    interp::ExecutionSetting tracedFloat = floatSetting;
    tracedFloat.windows = traceSteps;
    interp::Execution ref =
        interp::referenceRun(fixed.optimizer, n, w, true, fixed.clip, tracedFloat, fixed.scheduler);
    c.parameterErrorBuggy = errorTrace(interp::execute(*code.asWritten, traced), ref);
    c.parameterErrorFixed = errorTrace(interp::execute(*code.asWritten, tracedFloat), ref);
  }
  return c;
}

/// accum-trailing-micro-batches: whole epochs whose micro-batches are not a
/// multiple of N, run as written and with the fix-it, against the reference
/// that steps each epoch's short last window on the mean over its own r.
Confirmation confirmOverEpochs(const FindingCode &code, Confirmation c,
                               const interp::ExecutionSetting &base, int n, int w, int traceSteps) {
  interp::ExecutionSetting epochs = base;
  epochs.accumulationSteps = n;
  epochs.worldSize = w;
  // The model's B when it has one, shrunk to two windows plus its own
  // remainder; else a stand-in remainder of N/2.
  const std::optional<long> &batches = code.asWritten->batchCount;
  epochs.epochMicroBatches = batches
                                 ? static_cast<int>(std::min<long>(*batches, 2L * n + *batches % n))
                                 : 2 * n + std::max(1, n / 2);
  epochs.epochs = 2;
  interp::Execution written = interp::execute(*code.asWritten, epochs);
  c.assumptions.clear();
  for (const interp::Assumption &a : written.assumptions)
    c.assumptions.push_back({a.name, a.value, a.why});
  c.skipped = written.skipped;
  if (!written.problem.empty()) {
    c.verdict = "not-executable";
    c.detail = written.problem;
    return c;
  }
  if (batches && written.epochSizeAssumed)
    c.assumptions.push_back({"batches per epoch", std::to_string(epochs.epochMicroBatches),
                             "the model's B = " + std::to_string(*batches) +
                                 ", shrunk to at most two windows of N " +
                                 "plus its remainder B mod N = " + std::to_string(*batches % n)});
  int total = written.microBatches;
  std::string sizes;
  for (size_t i = 0; i < written.epochSizes.size(); ++i)
    sizes += (i ? ", " : "") + std::to_string(written.epochSizes[i]);
  std::string over = "over " + std::to_string(written.epochSizes.size()) + " epoch" +
                     (written.epochSizes.size() == 1 ? "" : "s") + " of " + sizes +
                     " micro-batches (N=" + std::to_string(n) + ")";
  c.unsteppedFraction =
      static_cast<double>(written.fates.discarded + written.fates.leftOver) / std::max(total, 1);
  c.leakedFraction = static_cast<double>(written.fates.leaked) / std::max(total, 1);
  std::string asWritten = over + ": " + describeFates(written.fates, total);
  // Without a fix-it, the runtime adds the flush the fix note describes.
  interp::ExecutionSetting flushed = epochs;
  flushed.flushAtEpochEnd = !code.fixed;
  interp::Execution fixed = interp::execute(code.fixed ? *code.fixed : *code.asWritten, flushed);
  if (!fixed.problem.empty()) {
    c.verdict = "not-executable";
    c.detail = "the loop with the fix-it applied cannot be run: " + fixed.problem;
    return c;
  }
  c.fix = code.fixed ? "the finding's fix-it, applied to the source and re-parsed"
                     : "program-level fix: the loop as written, plus a step() on the leftover "
                       "micro-batches' mean and a gradient reset at each epoch's end (" +
                           code.noFix + ")";
  interp::ClipUse clip = fixed.clip.used ? fixed.clip : written.clip;
  interp::Execution reference = interp::referenceEpochRun(
      fixed.optimizer, n, w, /*meanOverRanks=*/true, clip, epochs, written.epochSizes);
  if (w > 1) {
    interp::Execution sum =
        interp::referenceEpochRun(fixed.optimizer, n, w, false, clip, epochs, written.epochSizes);
    if (finalParameterError(fixed, sum) < finalParameterError(fixed, reference))
      reference = std::move(sum);
  }
  c.windows = reference.steps;
  // The first window is a full one in every run: these figures say so.
  c.relErrorBuggy =
      runtime::compare(written.firstAppliedGradient, reference.firstAppliedGradient).relativeError;
  c.relErrorFixed =
      runtime::compare(fixed.firstAppliedGradient, reference.firstAppliedGradient).relativeError;
  c.parameterErrorAsWritten = finalParameterError(written, reference);
  c.parameterErrorWithFix = finalParameterError(fixed, reference);
  int lostOrLate = written.fates.discarded + written.fates.leftOver + written.fates.leaked;
  bool fixStepsAll = fixed.fates.discarded + fixed.fates.leftOver + fixed.fates.leaked == 0;
  std::string versus =
      "; parameters after them off by " + format("%.3g", c.parameterErrorAsWritten) +
      " of the distance moved, against the reference that steps every window "
      "and each epoch's short last one on its own mean (" +
      std::to_string(reference.steps) + " steps, " + std::to_string(written.steps) + " as written)";
  std::string withFix = std::string(code.fixed ? "; with the fix: "
                                               : "; with a flush after the "
                                                 "loop (program-level fix): ") +
                        describeFates(fixed.fates, fixed.microBatches) + ", off by " +
                        format("%.2g", c.parameterErrorWithFix);
  int r = written.epochSizes.empty() ? 0 : written.epochSizes.front() % n;
  if (fixStepsAll && c.parameterErrorWithFix > kMatches && r > 0)
    withFix += " (each micro-batch of the fixed loop's short last window weighs 1/N as the "
               "code's loss scaling says, not 1/r: that update is r/N = " +
               std::to_string(r) + "/" + std::to_string(n) + " of the reference's)";
  // A remainder the runtime chose shows what happens for such a count, not
  // that the loop has one: the code does not give its batch count.
  if (written.epochSizeAssumed && !batches && lostOrLate > 0) {
    c.verdict = "not-confirmed";
    c.detail = "depends on the loop's batch count, which the code does not give: " + asWritten +
               versus + withFix + "; with a batch count that is a multiple of N, nothing is lost";
  } else if (lostOrLate > 0 && c.parameterErrorAsWritten > kDeviates && fixStepsAll) {
    c.verdict = "confirmed";
    c.detail = asWritten + versus + withFix;
  } else if (lostOrLate > 0 && c.parameterErrorAsWritten > kDeviates) {
    c.verdict = "not-confirmed";
    c.detail = asWritten + versus + "; but the fix does not step them all either" + withFix;
  } else {
    c.verdict = "not-confirmed";
    c.detail = "no numerical effect in this setting: " + asWritten +
               (written.epochSizes.size() && r == 0
                    ? " (the loop's batch count in the code is a multiple of N)"
                    : "") +
               versus;
  }
  if (traceSteps > 0) {
    // Enough epochs for traceSteps reference steps; each run is compared where
    // the reference's windows end.
    int perEpoch = (epochs.epochMicroBatches + n - 1) / n;
    interp::ExecutionSetting traced = epochs;
    traced.epochs = (traceSteps + perEpoch - 1) / perEpoch;
    interp::ExecutionSetting tracedFix = traced;
    tracedFix.flushAtEpochEnd = !code.fixed;
    interp::Execution run = interp::execute(*code.asWritten, traced);
    int epochsRun = static_cast<int>(run.epochSizes.size());
    if (epochsRun > 0 && epochsRun < traced.epochs) {
      // The code runs fewer epochs: longer ones give the steps.
      int windows = (traceSteps + epochsRun - 1) / epochsRun;
      traced.epochMicroBatches = n * (windows - 1) + std::max(1, n / 2);
      tracedFix.epochMicroBatches = traced.epochMicroBatches;
      run = interp::execute(*code.asWritten, traced);
    }
    interp::Execution fix = interp::execute(code.fixed ? *code.fixed : *code.asWritten, tracedFix);
    interp::Execution ref =
        interp::referenceEpochRun(fixed.optimizer, n, w, true, clip, traced, run.epochSizes);
    c.parameterErrorBuggy = epochErrorTrace(run, ref, traceSteps);
    c.parameterErrorFixed = epochErrorTrace(fix, ref, traceSteps);
  }
  return c;
}

} // namespace

std::string confirmationContext(const Confirmation &c) {
  std::string text = "ran " + c.setting.optimizer + " on " + c.setting.model + ", " +
                     c.setting.loss + ", " + c.setting.dtype + ", " + c.setting.backend;
  if (c.windows > 0)
    text += ", " + std::to_string(c.windows) + " optimizer steps";
  if (!c.fix.empty())
    text += "; fixed loop: " + c.fix;
  if (!c.assumptions.empty()) {
    text += "; assumed:";
    for (size_t i = 0; i < c.assumptions.size(); ++i)
      text += (i ? ", " : " ") + c.assumptions[i].name + " = " + c.assumptions[i].value + " (" +
              c.assumptions[i].why + ")";
  }
  if (!c.skipped.empty()) {
    text += "; not run: ";
    for (size_t i = 0; i < c.skipped.size() && i < 6; ++i)
      text += (i ? ", " : "") + c.skipped[i];
    if (c.skipped.size() > 6)
      text += " and " + std::to_string(c.skipped.size() - 6) + " more";
  }
  return text;
}

Confirmation confirmFinding(const FindingCode &code, const std::vector<ConfirmationPlan> &firing,
                            const ConfirmationPlan &diagnosed, const runtime::Backend &backend,
                            const std::string &backendName, int traceSteps) {
  Confirmation c;
  c.backend = backendName;
  c.setting.backend = backendName;
  interp::ExecutionSetting setting;
  setting.backend = &backend;
  setting.windows = kConfirmWindows;
  setting.focusLine = code.line;
  setting.fixes = code.otherFixes;
  c.setting.model = "mlp " + std::to_string(setting.data.inFeatures) + "-" +
                    std::to_string(setting.data.hidden) + "-" +
                    std::to_string(setting.data.outFeatures) + " (stand-in for the code's model)";
  c.setting.loss = "mse, mean over " + std::to_string(setting.data.microBatchSize) +
                   " samples per micro-batch (stand-in for the code's loss)";
  c.setting.dtype = runtime::dtypeName(setting.data.gradDType);
  c.windows = kConfirmWindows;
  if (!code.asWritten) {
    c.verdict = "not-executable";
    c.detail = "the loop's code was not translated";
    return c;
  }
  interp::Execution written = interp::execute(*code.asWritten, setting);
  c.accumulationSteps = written.accumulationSteps;
  c.worldSize = written.worldSize;
  c.setting.optimizer = optimizerWords(written.optimizer);
  if (written.scheduler)
    c.setting.optimizer += " with StepLR(step_size=" + std::to_string(written.scheduler->stepSize) +
                           ", gamma=" + format("%g", written.scheduler->gamma) +
                           "), stepped once per optimizer step in the reference";
  for (const interp::Assumption &a : written.assumptions)
    c.assumptions.push_back({a.name, a.value, a.why});
  c.skipped = written.skipped;
  if (!written.problem.empty()) {
    c.verdict = "not-executable";
    c.detail = written.problem;
    return c;
  }
  const int n = written.accumulationSteps, w = written.worldSize;
  int windows = std::min(kConfirmWindows, written.microBatches / std::max(n, 1));
  if (windows < 1) {
    c.verdict = "not-executable";
    c.detail = "the loop ran " + std::to_string(written.microBatches) +
               " micro-batches, fewer than one window of N=" + std::to_string(n);
    return c;
  }
  c.windows = windows;
  if (diagnosed.run == ConfirmationPlan::Run::Epochs)
    return confirmOverEpochs(code, std::move(c), setting, n, w, traceSteps);
  if (diagnosed.run == ConfirmationPlan::Run::HalfPrecision)
    return confirmHalfPrecision(code, std::move(c), setting, written, n, w, traceSteps);
  // The fixed side: the finding's own fix-it, else the code run with the
  // check's program-level fix applied as it executes.
  interp::ExecutionSetting same = setting;
  same.accumulationSteps = n;
  same.worldSize = w;
  same.decidedConditions = written.decidedConditions;
  interp::ExecutionSetting fixedSetting = same;
  const bool byProgramFix =
      !code.fixed && diagnosed.programFix != ConfirmationPlan::ProgramFix::None;
  if (byProgramFix)
    fixedSetting.fixes.push_back(diagnosed.programFix);
  std::optional<interp::Execution> fixed;
  if (code.fixed || byProgramFix) {
    fixed = interp::execute(code.fixed ? *code.fixed : *code.asWritten, fixedSetting);
    if (!fixed->problem.empty()) {
      c.verdict = "not-executable";
      c.detail = std::string(code.fixed ? "the loop with the fix-it applied"
                                        : "the loop with the program-level fix applied") +
                 " cannot be run: " + fixed->problem;
      return c;
    }
    c.fix = code.fixed ? "the finding's fix-it, applied to the source and re-parsed"
                       : "program-level fix (" + code.noFix + "): the loop's own code, run with " +
                             programFixWords(diagnosed.programFix);
  } else {
    // No fixed loop to run: the loop as written is measured against the
    // large-batch reference alone, and the text says so.
    c.fix = "none (" + code.noFix +
            ", and the check names no program-level fix): the loop as written is compared with "
            "the large-batch reference only";
  }
  interp::ClipUse clip = fixed ? fixed->clip : written.clip;
  if (!clip.used && written.clip.used)
    clip = written.clip;
  // The fixed loop's optimizer: a fix-it may change its options (lr / N).
  interp::OptimizerSpec referenceOptimizer = fixed ? fixed->optimizer : written.optimizer;
  if (diagnosed.aboutOptimizerOptions &&
      (referenceOptimizer.lrDividedBy != 1.0 || referenceOptimizer.weightDecayDividedBy != 1.0)) {
    // The finding is that division: the large-batch loop does not divide.
    referenceOptimizer.lr *= referenceOptimizer.lrDividedBy;
    referenceOptimizer.weightDecay *= referenceOptimizer.weightDecayDividedBy;
    referenceOptimizer.lrDividedBy = referenceOptimizer.weightDecayDividedBy = 1.0;
    c.assumptions.push_back({"the reference's optimizer",
                             format("lr=%g", referenceOptimizer.lr) +
                                 format(", weight_decay=%g", referenceOptimizer.weightDecay),
                             "the run's stand-in options without the division by N the "
                             "finding is about"});
  }
  auto referenceFor = [&](bool mean, int referenceWindows) {
    interp::ExecutionSetting s = same;
    s.windows = referenceWindows;
    return interp::referenceRun(referenceOptimizer, n, w, mean, clip, s, written.scheduler);
  };
  // Over ranks, the reference follows the fixed loop's convention (mean or sum).
  bool mean = true;
  if (w > 1) {
    const std::vector<float> &target =
        fixed ? fixed->firstAppliedGradient : written.firstAppliedGradient;
    interp::Execution meanRun = referenceFor(true, 1), sumRun = referenceFor(false, 1);
    bool closerToMean = runtime::compare(target, meanRun.firstAppliedGradient).relativeError <=
                        runtime::compare(target, sumRun.firstAppliedGradient).relativeError;
    mean = fixed || written.averagedOverRanks || code.asWritten->averagesOverRanks() ? closerToMean
                                                                                     : false;
  }
  interp::Execution reference = referenceFor(mean, windows);
  // The code's loss may carry a constant factor besides 1/N (`0.5 * (a + b)`,
  // a weighted head, `1 - dice`): the fixed loop shows it, and the reference
  // weighs each micro-batch the same way, so that only the finding's effect remains.
  if (fixed && fixed->steps > 0) {
    runtime::Comparison f =
        runtime::compare(fixed->firstAppliedGradient, reference.firstAppliedGradient);
    // A factor of N or W (or their inverses) may be what the finding is about:
    // a fix-it that divides a correct loop again must still show.
    bool aboutTheFinding = diagnosed.aboutGradientScale;
    for (double count : {double(n), double(w), double(n) * w})
      aboutTheFinding = aboutTheFinding ||
                        (count > 1 && (near(f.normRatio, count) || near(f.normRatio, 1.0 / count)));
    if (std::abs(f.cosine) > 0.999999 && f.normRatio > 0 && !aboutTheFinding &&
        (!near(f.normRatio, 1.0) || f.cosine < 0)) {
      double factor = f.cosine > 0 ? f.normRatio : -f.normRatio;
      same.referenceLossScale = factor;
      reference = referenceFor(mean, windows);
      c.assumptions.push_back(
          {"the reference's loss factor", format("%.4g", factor),
           "the loop with the fix applied weighs each micro-batch's loss by this constant "
           "besides 1/N (a weighted sum of losses, a sign); the large-batch reference weighs it "
           "the same way"});
    }
  }
  if (std::getenv("GRADLINT_DEBUG_CONFIRM")) {
    auto show = [](const char *what, const interp::Execution &run) {
      std::fprintf(stderr, "%s: steps %d micro %d |g1| %g |u1| %g trace %zu\n", what, run.steps,
                   run.microBatches, norm(run.firstAppliedGradient), norm(run.firstUpdate),
                   run.windowTrace.size());
    };
    show("written", written);
    if (fixed)
      show("fixed", *fixed);
    show("reference", reference);
  }
  runtime::Comparison gradient =
      runtime::compare(written.firstAppliedGradient, reference.firstAppliedGradient);
  c.relErrorBuggy = gradient.relativeError;
  c.gradNormRatio = gradient.normRatio;
  c.updateRatio = norm(written.firstUpdate) / std::max(norm(reference.firstUpdate), 1e-30);
  c.allreduceCallsPerStep = written.allReducesPerStep();
  c.parameterErrorAsWritten = parameterError(written, reference, static_cast<size_t>(windows));
  double fixedTraffic = 0.0;
  bool fixMatches = false;
  if (fixed) {
    c.relErrorFixed =
        runtime::compare(fixed->firstAppliedGradient, reference.firstAppliedGradient).relativeError;
    c.parameterErrorWithFix = parameterError(*fixed, reference, static_cast<size_t>(windows));
    fixedTraffic = fixed->gradientAllReducesPerStep();
    fixMatches =
        c.parameterErrorWithFix < kMatches && c.relErrorFixed < kMatches && fixed->steps > 0;
  } else {
    fixMatches = true; // nothing to compare: the reference alone decides
    fixedTraffic = std::min(written.gradientAllReducesPerStep(), 1.0);
  }
  // In whole gradients: a per-parameter all-reduce loop is one all-reduce.
  bool moreTraffic = written.gradientAllReducesPerStep() > fixedTraffic + 0.5;
  bool deviates = c.parameterErrorAsWritten > kDeviates || moreTraffic;

  std::string steps = std::to_string(windows) + " step" + (windows == 1 ? "" : "s");
  std::string what;
  // A reset between backward() and step() leaves the last micro-batch's gradient.
  runtime::RunSettings data = same.data;
  std::vector<float> last = runtime::lastMicroBatchGradient(n, w, 1.0f, data, backend);
  double lastRatio = norm(written.firstAppliedGradient) / std::max(norm(last), 1e-30);
  bool isLast = n > 1 && w == 1 && (near(lastRatio, 1.0) || near(lastRatio, 1.0 / n)) &&
                runtime::compare(written.firstAppliedGradient, last).cosine > 0.999999;
  if (isLast)
    what = std::string("applied gradient equals the last micro-batch's gradient") +
           (near(lastRatio, 1.0) ? "" : " / N") + " (N=" + std::to_string(n) +
           "): rel. error vs the large-batch gradient " + format("%.3g", gradient.relativeError);
  else if (n > 1 && near(gradient.normRatio, n) && gradient.cosine > 0.999999)
    what = "applied gradient is " + format("%.3f", gradient.normRatio) +
           "x the large-batch gradient (N=" + std::to_string(n) + ")";
  else if (w > 1 && near(gradient.normRatio, 1.0 / w) && gradient.cosine > 0.999999)
    what = "applied gradient is " + format("%.3f", gradient.normRatio) +
           "x the large-batch gradient (1/W, W=" + std::to_string(w) + ")";
  else if (diagnosed.weighsMicroBatches &&
           (what = overcountWords(written.firstAppliedGradient, n, w, data, backend, c),
            !what.empty()))
    ;
  else if (moreTraffic) {
    // In whole gradients, so that the figure reads as the warning's N.
    double perStep = written.gradientAllReducesPerStep();
    what = format("%.0f", perStep) + " all-reduces of the gradient per step instead of " +
           format("%.0f", fixedTraffic);
    if (std::abs(perStep - c.allreduceCallsPerStep) > 1e-9)
      what += " (" + format("%.0f", c.allreduceCallsPerStep) + " calls per step, one per " +
              "parameter tensor of the stand-in)";
  } else
    what = "applied gradient: rel. error " + format("%.3g", gradient.relativeError) +
           " vs the large-batch gradient, norm ratio " + format("%.3f", gradient.normRatio);
  std::string update = "update " + format("%.3f", c.updateRatio) +
                       "x the large-batch update; parameters after " + steps + " off by " +
                       format("%.3g", c.parameterErrorAsWritten) + " of the distance moved";
  std::string withFix = fixed ? "; with the fix: " + format("%.1g", c.parameterErrorWithFix) +
                                    (byProgramFix ? " (program-level fix)" : "")
                              : std::string("; no fixed loop was run (no fix-it)");
  // How the last compared step differs: its learning rate, its gradient.
  size_t lastStep = static_cast<size_t>(windows) - 1;
  if (lastStep < written.stepLearningRates.size() &&
      lastStep < reference.stepLearningRates.size()) {
    c.learningRateAsWritten = written.stepLearningRates[lastStep];
    c.learningRateReference = reference.stepLearningRates[lastStep];
    c.lastStepGradientRatio = written.appliedGradientNorms[lastStep] /
                              std::max(reference.appliedGradientNorms[lastStep], 1e-30);
    if (std::abs(c.learningRateAsWritten - c.learningRateReference) >
        1e-6 * std::abs(c.learningRateReference))
      update += "; learning rate at step " + std::to_string(windows) + ": " +
                format("%.4g", c.learningRateAsWritten) + " as written vs " +
                format("%.4g", c.learningRateReference) + " in the reference";
    if (std::abs(written.optimizer.weightDecay - reference.optimizer.weightDecay) >
        1e-9 * std::abs(reference.optimizer.weightDecay))
      update += "; weight decay " + format("%.4g", written.optimizer.weightDecay) +
                " as written vs " + format("%.4g", reference.optimizer.weightDecay) +
                " in the reference";
    if (windows > 1 && !near(c.lastStepGradientRatio, gradient.normRatio))
      update += "; applied gradient at step " + std::to_string(windows) + ": " +
                format("%.3f", c.lastStepGradientRatio) +
                "x the reference's (step 1: " + format("%.3f", gradient.normRatio) + "x)";
  }
  if (deviates && fixMatches) {
    c.verdict = "confirmed";
    c.detail = what + "; " + update + withFix;
  } else if (deviates) {
    c.verdict = "not-confirmed";
    if (fixed) {
      runtime::Comparison f =
          runtime::compare(fixed->firstAppliedGradient, reference.firstAppliedGradient);
      if (f.cosine > 0.999999 && !near(f.normRatio, 1.0))
        what += "; the fixed loop's gradient is " + format("%.3f", f.normRatio) +
                "x the large-batch gradient: the loss carries another constant factor that the "
                "fix-it keeps";
    }
    c.detail = what + "; " + update + "; but the fixed loop departs from the reference too (" +
               format("%.3g", c.parameterErrorWithFix) + ", applied gradient rel. error " +
               format("%.3g", c.relErrorFixed) + "): the fix does not restore it";
  } else {
    c.verdict = "not-confirmed";
    std::string why;
    if (gradient.relativeError > kDeviates && adaptive(written.optimizer))
      why = written.optimizer.type + " normalises the gradient's scale: the " + what +
            ", yet its update matches the large-batch update";
    else if (written.clip.used && written.clip.bound)
      why = "the clip limit " + format("%g", written.clip.limit) +
            " binds only on the window's complete sum (largest norm " +
            format("%.3g", written.clip.largestNorm) +
            "), where clipping each micro-batch equals clipping once before step()";
    else if (written.clip.used && !written.clip.bound)
      why = "the clip limit " + format("%g", written.clip.limit) +
            " never binds on the stand-in's gradients (largest " +
            (written.clip.byValue ? "|gradient element| " : "gradient norm ") +
            format("%.3g", written.clip.largestNorm) + ")";
    else
      why = "the loop as written matches the large-batch reference";
    // The fix-it edits what the runtime ran identically both ways: the values
    // it changes were not read (a default stood in for them). Without any
    // fixed loop, a match says as little. Either way the finding's mechanism
    // did not run: that is no measurement of it.
    bool fixChangesNothing = fixed && !fixed->windowTrace.empty() && !written.windowTrace.empty() &&
                             fixed->windowTrace.back() == written.windowTrace.back() &&
                             (!c.assumptions.empty() || !c.skipped.empty()) &&
                             !written.clip.used; // a clip that ran and never bound is a measurement
    bool nothingToCompare = !fixed && !written.clip.used;
    if (fixChangesNothing || nothingToCompare) {
      c.verdict = "not-executable";
      std::string unread;
      for (size_t i = 0; i < c.assumptions.size() && i < 4; ++i)
        unread += (i ? ", " : "") + c.assumptions[i].name;
      c.detail =
          std::string(fixChangesNothing
                          ? (byProgramFix ? "the program-level fix changes nothing the runtime ran"
                                          : "the fix-it changes nothing the runtime ran")
                          : "there is no fixed loop (no fix-it, no program-level fix)") +
          " and the loop as written matches the large-batch reference (parameters after " + steps +
          " off by " + format("%.1g", c.parameterErrorAsWritten) +
          "): what the finding is about was not read from the code or not run" +
          (unread.empty() ? std::string() : " (assumed: " + unread + ")");
      return c;
    }
    c.detail = "no numerical effect in this setting: " + why + " (parameters after " + steps +
               " off by " + format("%.1g", c.parameterErrorAsWritten) + ")";
    if (c.parameterErrorWithFix > kDeviates)
      c.detail += "; the fix would move it off the reference (" +
                  format("%.3g", c.parameterErrorWithFix) + ")";
  }
  if (written.clip.used && written.clip.bound && c.verdict == "confirmed")
    c.detail += " (the code's clip limit " + format("%g", written.clip.limit) +
                " binds in the loop as written)";
  if (firing.size() > 1)
    c.detail += " (measured with the loop's other findings fixed)";
  if (w > 1 && !mean)
    c.detail += " (the loop sums over ranks without dividing by W; so does the reference)";
  if (traceSteps > 0) {
    interp::ExecutionSetting traced = same;
    traced.windows = traceSteps;
    interp::Execution ref = referenceFor(mean, traceSteps);
    c.parameterErrorBuggy = errorTrace(interp::execute(*code.asWritten, traced), ref);
    if (fixed) {
      interp::ExecutionSetting tracedFixed = fixedSetting;
      tracedFixed.windows = traceSteps;
      c.parameterErrorFixed =
          errorTrace(interp::execute(code.fixed ? *code.fixed : *code.asWritten, tracedFixed), ref);
    }
  }
  return c;
}

} // namespace gradlint
