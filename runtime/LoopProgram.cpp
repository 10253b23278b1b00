#include "LoopProgram.h"

#include "Batch.h"
#include "Clip.h"
#include "Loss.h"
#include "Metrics.h"
#include "Model.h"
#include "Optimizers.h"

#include <cmath>
#include <stdexcept>

namespace gradlint {
namespace runtime {

namespace {

const char *opName(OpKind kind) {
  switch (kind) {
  case OpKind::Backward: return "backward";
  case OpKind::GradReset: return "reset";
  case OpKind::Clip: return "clip";
  case OpKind::AllReduce: return "all-reduce";
  case OpKind::GradDivide: return "grad-divide";
  case OpKind::Step: return "step";
  }
  return "?";
}

const char *whenName(OpWhen when) {
  switch (when) {
  case OpWhen::EveryMicroBatch: return "every";
  case OpWhen::Boundary: return "boundary";
  case OpWhen::WindowStart: return "start";
  case OpWhen::NotBoundary: return "not-boundary";
  case OpWhen::Elsewhere: return "mid-window";
  }
  return "?";
}

bool runsAt(OpWhen when, int micro, int steps) {
  switch (when) {
  case OpWhen::EveryMicroBatch: return true;
  case OpWhen::Boundary: return micro == steps - 1;
  case OpWhen::WindowStart: return micro == 0;
  case OpWhen::NotBoundary: return micro != steps - 1;
  case OpWhen::Elsewhere: return micro == (steps > 1 ? 1 : 0);
  }
  return false;
}

Model makeModel(const RunSettings &s) {
  return Model::mlp(s.inFeatures, s.hidden, s.outFeatures, s.seed);
}

} // namespace

// The reference concatenates the same micro-batches.
Batch microBatch(const RunSettings &s, int window, int micro, int rank, int steps, int world) {
  uint64_t index = (static_cast<uint64_t>(window) * steps + micro) * world + rank;
  return makeBatch(s.seed, index, s.microBatchSize, s.inFeatures, s.outFeatures,
                   TaskKind::Regression);
}

std::string LoopProgram::describe() const {
  std::string text;
  for (const LoopOp &op : ops) {
    if (!text.empty())
      text += "; ";
    text += std::string(opName(op.kind)) + "[" + whenName(op.when) + "]";
    if (op.dividesBySteps)
      text += "/N";
    if (op.dividesByWorldSize)
      text += "/W";
    if (op.kind == OpKind::AllReduce)
      text += std::string("(") + reduceOpName(op.reduceOp) + ")";
  }
  return text;
}

std::vector<float> lastMicroBatchGradient(int steps, int worldSize, float lossScale,
                                          const RunSettings &settings, const Backend &backend) {
  Model model = makeModel(settings);
  GradBuffer grads(model, DType::F32);
  forwardBackward(model, microBatch(settings, 0, steps - 1, 0, steps, worldSize), LossKind::Mse,
                  Reduction::Mean, lossScale, grads, backend);
  return grads.flatten();
}

std::vector<float> weightedWindowGradient(const std::vector<double> &weights, int worldSize,
                                          const RunSettings &settings, const Backend &backend) {
  Model model = makeModel(settings);
  GradBuffer grads(model, DType::F32);
  int steps = static_cast<int>(weights.size());
  for (int rank = 0; rank < worldSize; ++rank)
    for (int k = 0; k < steps; ++k)
      forwardBackward(
          model, microBatch(settings, 0, k, rank, steps, worldSize), LossKind::Mse, Reduction::Mean,
          static_cast<float>(weights[static_cast<size_t>(k)] / worldSize), grads, backend);
  return grads.flatten();
}

std::vector<float> largeBatchGradient(int steps, int worldSize, const RunSettings &settings,
                                      const Backend &backend) {
  LoopProgram plain;
  plain.steps = steps;
  plain.worldSize = worldSize;
  LoopOp average;
  average.kind = OpKind::AllReduce;
  average.reduceOp = ReduceOp::Avg;
  plain.ops.push_back(average);
  RunSettings unclipped = settings;
  unclipped.windows = 1;
  return runReference(plain, unclipped, backend).appliedGradient;
}

bool averagesOverRanks(const LoopProgram &program) {
  for (const LoopOp &op : program.ops)
    if ((op.kind == OpKind::AllReduce && op.reduceOp == ReduceOp::Avg) || op.dividesByWorldSize)
      return true;
  return false;
}

double typicalMicroBatchGradNorm(const RunSettings &settings, const Backend &backend) {
  Model model = makeModel(settings);
  GradBuffer grads(model, DType::F32);
  forwardBackward(model, microBatch(settings, 0, 0, 0, 1, 1), LossKind::Mse, Reduction::Mean, 1.0f,
                  grads, backend);
  return grads.norm();
}

RunMeasurement runProgram(const LoopProgram &program, const RunSettings &settings,
                          const Backend &backend) {
  if (program.steps < 1 || program.worldSize < 1)
    throw std::invalid_argument("a loop program needs N >= 1 and W >= 1");
  const int steps = program.steps, world = program.worldSize;
  RunMeasurement result;
  result.clipLimit = settings.clipLimit > 0 ? settings.clipLimit
                                            : 0.5 * typicalMicroBatchGradNorm(settings, backend);
  // Every rank starts from the same parameters, as after a broadcast.
  std::vector<Model> models(world, makeModel(settings));
  std::vector<GradBuffer> grads;
  std::vector<Sgd> optimizers;
  for (int r = 0; r < world; ++r) {
    grads.emplace_back(models[r], settings.gradDType);
    optimizers.emplace_back(SgdOptions{settings.learningRate, 0.0, 0.0, 0.0, false}, backend);
  }
  std::vector<GradBuffer *> rankGrads;
  for (GradBuffer &g : grads)
    rankGrads.push_back(&g);
  ProcessGroup group(world, backend);
  result.parameterTrace.push_back(flattenParameters(models[0]));

  for (int window = 0; window < settings.windows; ++window) {
    for (int micro = 0; micro < steps; ++micro) {
      for (const LoopOp &op : program.ops) {
        if (!runsAt(op.when, micro, steps))
          continue;
        float divisor = (op.dividesBySteps ? steps : 1) * (op.dividesByWorldSize ? world : 1);
        switch (op.kind) {
        case OpKind::Backward:
          for (int r = 0; r < world; ++r)
            forwardBackward(models[r], microBatch(settings, window, micro, r, steps, world),
                            LossKind::Mse, Reduction::Mean, 1.0f / divisor, grads[r], backend);
          break;
        case OpKind::GradReset:
          for (GradBuffer &g : grads)
            g.zero();
          break;
        case OpKind::Clip: {
          // The code's own limit counts unless the settings impose one.
          double limit =
              settings.clipLimit <= 0 && op.clipLimit > 0 ? op.clipLimit : result.clipLimit;
          for (GradBuffer &g : grads) {
            if (op.clipByValue)
              clipGradValue(g, limit, backend);
            else
              clipGradNorm(g, limit, backend);
          }
          break;
        }
        case OpKind::AllReduce: group.allReduce(rankGrads, op.reduceOp); break;
        case OpKind::GradDivide:
          for (GradBuffer &g : grads)
            g.scale(1.0f / divisor, backend);
          break;
        case OpKind::Step:
          if (result.stepsTaken == 0)
            result.appliedGradient = grads[0].flatten();
          for (int r = 0; r < world; ++r)
            optimizers[r].step(models[r], grads[r]);
          ++result.stepsTaken;
          break;
        }
      }
    }
    result.parameterTrace.push_back(flattenParameters(models[0]));
  }
  int windowsRun = settings.windows > 0 ? settings.windows : 1;
  result.allReduceCallsPerStep = static_cast<double>(group.calls()) / windowsRun;
  result.allReduceBytesPerStep = static_cast<double>(group.bytes()) / windowsRun;
  result.parameters = flattenParameters(models[0]);
  return result;
}

RunMeasurement runReference(const LoopProgram &program, const RunSettings &settings,
                            const Backend &backend) {
  const int steps = program.steps, worldSize = program.worldSize;
  const LoopOp *clip = nullptr;
  for (const LoopOp &op : program.ops)
    if (op.kind == OpKind::Clip && !clip)
      clip = &op;
  RunMeasurement result;
  result.clipLimit = settings.clipLimit > 0 ? settings.clipLimit
                                            : 0.5 * typicalMicroBatchGradNorm(settings, backend);
  if (settings.clipLimit <= 0 && clip && clip->clipLimit > 0)
    result.clipLimit = clip->clipLimit; // the code's own limit, as in runProgram
  Model model = makeModel(settings);
  GradBuffer grads(model, DType::F32);
  Sgd optimizer(SgdOptions{settings.learningRate, 0.0, 0.0, 0.0, false}, backend);
  result.parameterTrace.push_back(flattenParameters(model));
  for (int window = 0; window < settings.windows; ++window) {
    std::vector<Batch> parts;
    for (int micro = 0; micro < steps; ++micro)
      for (int r = 0; r < worldSize; ++r)
        parts.push_back(microBatch(settings, window, micro, r, steps, worldSize));
    grads.zero();
    forwardBackward(model, Batch::concat(parts), LossKind::Mse, Reduction::Mean, 1.0f, grads,
                    backend);
    if (worldSize > 1 && !averagesOverRanks(program))
      grads.scale(static_cast<float>(worldSize), backend);
    if (clip && clip->clipByValue)
      clipGradValue(grads, result.clipLimit, backend);
    else if (clip)
      clipGradNorm(grads, result.clipLimit, backend);
    if (window == 0)
      result.appliedGradient = grads.flatten();
    optimizer.step(model, grads);
    ++result.stepsTaken;
    result.parameterTrace.push_back(flattenParameters(model));
  }
  result.allReduceCallsPerStep = worldSize > 1 ? 1.0 : 0.0;
  result.parameters = flattenParameters(model);
  return result;
}

} // namespace runtime
} // namespace gradlint
