// A training loop as a small program the runtime can execute: the events of
// one micro-batch, in order, each with the condition under which it runs.
// confirm/Lowering.h lowers the analyzer's training-loop model into this;
// the interpreter runs it against the large-batch reference.
#pragma once

#include "Batch.h"
#include "GradBuffer.h"
#include "ProcessGroup.h"
#include "kernels/Backend.h"

#include <string>
#include <vector>

namespace gradlint {
namespace runtime {

enum class OpKind { Backward, GradReset, Clip, AllReduce, GradDivide, Step };

/// When an op runs within a window of N micro-batches (m = 0 .. N-1).
enum class OpWhen {
  EveryMicroBatch,
  Boundary,    ///< m == N - 1
  WindowStart, ///< m == 0
  NotBoundary, ///< m != N - 1
  Elsewhere,   ///< once per window, at m == 1 (a guard with another residue)
};

struct LoopOp {
  OpKind kind = OpKind::Backward;
  OpWhen when = OpWhen::EveryMicroBatch;
  /// Backward: the loss is divided by N / by W. GradDivide: the gradients are.
  bool dividesBySteps = false;
  bool dividesByWorldSize = false;
  /// Clip: clip_grad_value_ instead of clip_grad_norm_.
  bool clipByValue = false;
  /// Clip: the max_norm / clip value written in the code; <= 0 when it is not
  /// a constant. Used only when RunSettings::clipLimit does not set one.
  double clipLimit = 0.0;
  ReduceOp reduceOp = ReduceOp::Sum; ///< AllReduce
};

struct LoopProgram {
  int steps = 4;     ///< N
  int worldSize = 1; ///< W (simulated ranks)
  std::vector<LoopOp> ops;
  std::string describe() const; ///< "backward[every]/N; step[boundary]; ..."
};

/// The numeric setting a program runs in.
struct RunSettings {
  uint64_t seed = 7;
  int inFeatures = 8, hidden = 16, outFeatures = 4, microBatchSize = 4;
  double learningRate = 0.1;
  int windows = 1;        ///< optimizer steps to run
  double clipLimit = 0.0; ///< max_norm / clip value; <= 0: chosen from the data
  DType gradDType = DType::F32;
};

/// Micro-batch `micro` of window `window` on rank `rank`, in a loop of `steps`
/// micro-batches per window on `world` ranks: the data every program and the
/// reference read (and what the LibTorch fixtures in fixtures/ feed in).
Batch microBatch(const RunSettings &settings, int window, int micro, int rank, int steps,
                 int world);

/// What one execution measured.
struct RunMeasurement {
  std::vector<float> appliedGradient; ///< rank 0's gradient at its first step()
  std::vector<float> parameters;      ///< rank 0's parameters after all windows
  /// Rank 0's parameters before window 0 and after each window (windows + 1 entries).
  std::vector<std::vector<float>> parameterTrace;
  double allReduceCallsPerStep = 0.0;
  double allReduceBytesPerStep = 0.0;
  int stepsTaken = 0;
  double clipLimit = 0.0; ///< the limit clipping used
};

/// Runs `program` for settings.windows windows on W simulated ranks.
RunMeasurement runProgram(const LoopProgram &program, const RunSettings &settings,
                          const Backend &backend);

/// The large-batch reference: one mean-loss step per window on all N x W
/// micro-batches of that window together. When `program` clips, the reference
/// clips its gradient the same way (clip(large-batch gradient)). When it never
/// averages over ranks (no AVG all-reduce, no division by W), the reference
/// follows that convention: the sum over ranks, W times the mean.
RunMeasurement runReference(const LoopProgram &program, const RunSettings &settings,
                            const Backend &backend);

/// The gradient of window 0's last micro-batch on rank 0 alone, with the loss
/// multiplied by `lossScale`: what a loop that resets on every micro-batch applies.
std::vector<float> lastMicroBatchGradient(int steps, int worldSize, float lossScale,
                                          const RunSettings &settings, const Backend &backend);

/// Window 0's micro-batch gradients weighted: the mean over ranks of
/// sum_k weights[k] * g_k (k = 0 .. weights.size() - 1, on rank r's data).
std::vector<float> weightedWindowGradient(const std::vector<double> &weights, int worldSize,
                                          const RunSettings &settings, const Backend &backend);

/// The large-batch gradient of window 0 (unclipped), to choose clip limits
/// that bind.
std::vector<float> largeBatchGradient(int steps, int worldSize, const RunSettings &settings,
                                      const Backend &backend);

/// Whether a program averages gradients over ranks somewhere.
bool averagesOverRanks(const LoopProgram &program);

/// The norm of one micro-batch's gradient, to choose clip limits that bind.
double typicalMicroBatchGradNorm(const RunSettings &settings, const Backend &backend);

} // namespace runtime
} // namespace gradlint
