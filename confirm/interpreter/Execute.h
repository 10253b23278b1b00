// Runs a LoopCode on the reference runtime: the loop's statements in order on
// W simulated ranks in lockstep, each LibTorch call on the runtime's model,
// gradients, optimizer and process group; and the large-batch reference the
// confirmation compares it with.
#pragma once

#include "checks/ConfirmationPlan.h"
#include "confirm/interpreter/LoopCode.h"

#include "runtime/RunSettings.h"
#include "runtime/kernels/Backend.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gradlint::interp {

struct ExecutionSetting {
  runtime::RunSettings data; ///< model sizes, micro-batch size, seed, gradient dtype
  int windows = 3;           ///< the loop runs windows x N micro-batches
  const runtime::Backend *backend = nullptr;
  /// 0: N and W as the code says or its stated defaults; else these.
  int accumulationSteps = 0, worldSize = 0;
  /// accumulationSteps is the value the code itself gave N when it ran.
  bool stepsSeenInCode = false;
  /// The finding's line (0: none): a branch the code's values do not decide
  /// is the one that reaches it.
  unsigned focusLine = 0;
  /// Conditions the interpreter could not evaluate, by their source text, and
  /// the branch an earlier run took: the fixed loop takes the same ones.
  std::map<std::string, bool> decidedConditions;
  /// The reference: a constant factor on every micro-batch's loss besides
  /// 1/N (the code's own weighting, as its fixed loop shows it).
  double referenceLossScale = 1.0;
  /// > 0: epochs of this many micro-batches (a data loop whose length the code
  /// does not show ends after them) and the run ends after `epochs` epochs,
  /// with the code after the data loop run at each epoch's end.
  int epochMicroBatches = 0;
  int epochs = 2;
  /// Epoch mode: when the data loop ends with micro-batches not yet stepped,
  /// the runtime steps the loop's optimizer and resets the gradients (the
  /// flush a fix adds after the loop).
  bool flushAtEpochEnd = false;
  /// Fixes the run applies to the code as it executes, for findings without a
  /// fix-it (what ConfirmationPlan::ProgramFix names): the code's own resets,
  /// clips, all-reduces and losses, moved or scaled where the fix puts them.
  std::vector<ConfirmationPlan::ProgramFix> fixes;
};

/// Where the micro-batches' gradients went (one count per micro-batch).
struct MicroBatchFates {
  int stepped = 0;   ///< reached a step()
  int leaked = 0;    ///< of those, stepped in a later epoch than their own
  int discarded = 0; ///< reset before any step() applied them
  int leftOver = 0;  ///< still in .grad when the run ended
  int total() const { return stepped + discarded + leftOver; }
};

/// The clipping the code did, as executed.
struct ClipUse {
  bool used = false;
  bool byValue = false;
  double limit = 0.0;
  bool bound = false;       ///< the limit clipped at least once
  double largestNorm = 0.0; ///< the largest gradient norm (or |element|) it saw
};

struct Execution {
  std::string problem; ///< why it could not run to the end; empty when it ran
  int accumulationSteps = 0, worldSize = 0;
  int microBatches = 0, steps = 0;
  std::vector<float> initialParameters;
  std::vector<float> firstAppliedGradient; ///< rank 0's gradient at its first step()
  std::vector<float> firstUpdate;          ///< rank 0's parameters after minus before it
  /// Per step(): the loop optimizer's learning rate it applied, and the norm
  /// of rank 0's gradient it applied.
  std::vector<double> stepLearningRates;
  std::vector<double> appliedGradientNorms;
  /// Rank 0's parameters before each window's first micro-batch and at the end.
  std::vector<std::vector<float>> windowTrace;
  double allReduceCalls = 0.0;
  /// All-reduces counted in whole gradients: a call on one of P parameter
  /// tensors counts 1/P (per-parameter loops make one all-reduce of the gradient).
  double gradientAllReduces = 0.0;
  bool averagedOverRanks = false; ///< an AVG all-reduce ran
  ClipUse clip;
  OptimizerSpec optimizer; ///< the loop's optimizer
  /// The StepLR the loop stepped on its optimizer, if any.
  std::optional<SchedulerSpec> scheduler;
  std::vector<Assumption> assumptions;
  std::vector<std::string> skipped; ///< "name (line L)", deduplicated by name
  MicroBatchFates fates;
  std::vector<int> epochSizes; ///< micro-batches each epoch took (epoch mode)
  /// Epoch mode: the epoch's length was the setting's stand-in, not the code's.
  bool epochSizeAssumed = false;
  /// Epoch mode: rank 0's parameters before each micro-batch, then at the end.
  std::vector<std::vector<float>> microBatchTrace;
  /// The reference (referenceEpochRun): the micro-batches each window ends after.
  std::vector<int> windowEnds;
  int stepsSeen = 0; ///< the value N had when the code read it (0: never known)
  std::map<std::string, bool> decidedConditions; ///< see ExecutionSetting
  double allReducesPerStep() const { return steps ? allReduceCalls / steps : 0.0; }
  double gradientAllReducesPerStep() const { return steps ? gradientAllReduces / steps : 0.0; }
};

/// Executes the code for setting.windows x N micro-batches.
Execution execute(const LoopCode &code, const ExecutionSetting &setting);

/// The large-batch reference: per window, one step of `optimizer` on the
/// mean loss over the window's N x W micro-batches (the sum over ranks when
/// `meanOverRanks` is false), clipped as `clip` says when it was used, and the
/// scheduler stepped once per optimizer step.
Execution referenceRun(const OptimizerSpec &optimizer, int steps, int worldSize, bool meanOverRanks,
                       const ClipUse &clip, const ExecutionSetting &setting,
                       const std::optional<SchedulerSpec> &scheduler = std::nullopt);

/// The reference over whole epochs of `epochSizes` micro-batches: windows of
/// N, and each epoch's last window of r = size mod N micro-batches stepped on
/// the mean over its own r (what a large-batch loop does with a short last batch).
Execution referenceEpochRun(const OptimizerSpec &optimizer, int steps, int worldSize,
                            bool meanOverRanks, const ClipUse &clip,
                            const ExecutionSetting &setting, const std::vector<int> &epochSizes);

} // namespace gradlint::interp
