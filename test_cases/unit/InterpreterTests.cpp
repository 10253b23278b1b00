// Unit tests of confirm/interpreter: a snippet is parsed against the bundled
// LibTorch API model, its training loop translated from the AST and run on the
// CPU runtime; each test pins what one construct or LibTorch mapping does to
// the numbers (steps taken, micro-batches read, all-reduces, clipping, the
// applied gradient against the large-batch reference).
#include "ModelTestSupport.h"

#include "confirm/interpreter/Execute.h"
#include "confirm/interpreter/Translate.h"

#include "runtime/Metrics.h"
#include "runtime/kernels/Backend.h"

#include <algorithm>

using namespace gradlint;
using namespace gradlint::test;

namespace {

interp::Execution run(Analysis &analysis, int windows = 3, size_t loop = 0) {
  EXPECT_GT(analysis.loops().size(), loop) << analysis.dump();
  if (analysis.loops().size() <= loop)
    return {};
  auto code = interp::translateLoop(analysis.loops()[loop], analysis.builder().facts());
  interp::ExecutionSetting setting;
  setting.backend = &runtime::cpuBackend();
  setting.windows = windows;
  return interp::execute(*code, setting);
}

interp::Execution reference(const interp::Execution &run, bool mean = true) {
  interp::ExecutionSetting setting;
  setting.backend = &runtime::cpuBackend();
  setting.windows = 3;
  return interp::referenceRun(run.optimizer, run.accumulationSteps, run.worldSize, mean, run.clip,
                              setting, run.scheduler);
}

/// ||a|| / ||b|| of the first applied gradients.
double gradientRatio(const interp::Execution &a, const interp::Execution &b) {
  return runtime::compare(a.firstAppliedGradient, b.firstAppliedGradient).normRatio;
}

double parameterError(const interp::Execution &a, const interp::Execution &b) {
  return runtime::compare(a.windowTrace.back(), b.windowTrace.back()).relativeError;
}

bool assumed(const interp::Execution &run, const std::string &name, const std::string &value) {
  return std::any_of(
      run.assumptions.begin(), run.assumptions.end(),
      [&](const interp::Assumption &a) { return a.name == name && a.value == value; });
}

bool skippedMentions(const interp::Execution &run, const std::string &text) {
  return std::any_of(run.skipped.begin(), run.skipped.end(),
                     [&](const std::string &s) { return s.find(text) != std::string::npos; });
}

const char *const kDivided = R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  const int accum = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = net.forward(xs[i]).pow(2).mean() / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp";

} // namespace

TEST(Interpreter, ModuloGuardStepsOncePerWindow) {
  GL_ANALYSE(a, kDivided);
  interp::Execution r = run(a);
  ASSERT_EQ(r.problem, "");
  EXPECT_EQ(r.accumulationSteps, 4);
  EXPECT_EQ(r.microBatches, 12);
  EXPECT_EQ(r.steps, 3);
  interp::Execution ref = reference(r);
  EXPECT_NEAR(gradientRatio(r, ref), 1.0, 1e-6);
  EXPECT_LT(parameterError(r, ref), 1e-6);
  EXPECT_EQ(r.optimizer.type, "SGD");
  EXPECT_DOUBLE_EQ(r.optimizer.lr, 0.1);
}

TEST(Interpreter, LossScaleIsEvaluatedToANumber) {
  // `loss * 0.25` with N = 4 is the division; `loss * 0.5` is half of it.
  GL_ANALYSE(quarter,
             std::string(kDivided).replace(std::string(kDivided).find("/ accum"), 7, "* 0.25"));
  interp::Execution r = run(quarter);
  ASSERT_EQ(r.problem, "");
  EXPECT_NEAR(gradientRatio(r, reference(r)), 1.0, 1e-6);
  GL_ANALYSE(half, std::string(kDivided).replace(std::string(kDivided).find("/ accum"), 7,
                                                 "* (2.0 / accum)"));
  interp::Execution h = run(half);
  ASSERT_EQ(h.problem, "");
  EXPECT_NEAR(gradientRatio(h, reference(h)), 2.0, 1e-5);
}

TEST(Interpreter, IntegerDivisionTruncates) {
  // N = 7 / 2 = 3 in C++: the window is 3 micro-batches, read from the code as it runs.
  std::string code = kDivided;
  code.replace(code.find("const int accum = 4;"), 20, "int accum = 7 / 2;");
  GL_ANALYSE(a, code);
  interp::Execution r = run(a);
  ASSERT_EQ(r.problem, "");
  EXPECT_EQ(r.accumulationSteps, 3);
  EXPECT_EQ(r.steps, 3);
  EXPECT_NEAR(gradientRatio(r, reference(r)), 1.0, 1e-6);
}

TEST(Interpreter, WhileTrueWithContinueAndBreak) {
  GL_ANALYSE(a, R"cpp(
void train(Net &net, torch::data::Iterator<torch::Tensor> it) {
  torch::optim::SGD opt(net.parameters(), 0.1);
  int seen = 0;
  while (true) {
    auto loss = net.forward(*it).sum() / 2;
    loss.backward();
    ++seen;
    if (seen % 2 != 0)
      continue;
    opt.step();
    opt.zero_grad();
    if (seen >= 1000)
      break;
  }
}
)cpp");
  interp::Execution r = run(a);
  ASSERT_EQ(r.problem, "");
  EXPECT_EQ(r.accumulationSteps, 2);
  EXPECT_EQ(r.steps, 3);
  EXPECT_EQ(r.microBatches, 6);
}

TEST(Interpreter, LambdaUpdatesTheCapturedCounter) {
  GL_ANALYSE(a, R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs) {
  torch::optim::Adam opt(net.parameters(), torch::optim::AdamOptions(1e-3).betas(std::make_tuple(0.8, 0.99)).weight_decay(0.01));
  int micro = 0;
  auto on_batch = [&](const torch::Tensor &x) {
    (net.forward(x).pow(2).mean() / 4).backward();
    if (++micro == 4) {
      opt.step();
      opt.zero_grad();
      micro = 0;
    }
  };
  for (auto &x : xs)
    on_batch(x);
}
)cpp");
  interp::Execution r = run(a);
  ASSERT_EQ(r.problem, "");
  EXPECT_EQ(r.steps, 3);
  EXPECT_EQ(r.optimizer.type, "Adam");
  EXPECT_DOUBLE_EQ(r.optimizer.beta1, 0.8);
  EXPECT_DOUBLE_EQ(r.optimizer.beta2, 0.99);
  EXPECT_DOUBLE_EQ(r.optimizer.weightDecay, 0.01);
  EXPECT_LT(parameterError(r, reference(r)), 1e-5);
}

TEST(Interpreter, ResetInsideTheWindowLeavesTheLastMicroBatch) {
  // p.grad().zero_() on every micro-batch: each step applies one micro-batch's gradient.
  GL_ANALYSE(a, R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(net.parameters(), 0.1);
  for (size_t i = 0; i < xs.size(); ++i) {
    for (auto &p : net.parameters())
      if (p.grad().defined())
        p.grad().zero_();
    (net.forward(xs[i]).pow(2).mean() / 4).backward();
    if (i % 4 == 3)
      opt.step();
  }
}
)cpp");
  interp::Execution r = run(a);
  ASSERT_EQ(r.problem, "");
  EXPECT_EQ(r.steps, 3);
  interp::Execution ref = reference(r);
  double ratio = gradientRatio(r, ref);
  EXPECT_GT(std::abs(ratio - 1.0), 0.05) << ratio;
  EXPECT_GT(parameterError(r, ref), 1e-3);
}

TEST(Interpreter, ClipUsesTheCodesLimitAndKind) {
  std::string code = kDivided;
  code.replace(code.find("    if ((i + 1)"), 0,
               "    torch::nn::utils::clip_grad_value_(net.parameters(), 0.001);\n");
  GL_ANALYSE(a, code);
  interp::Execution r = run(a);
  ASSERT_EQ(r.problem, "");
  EXPECT_TRUE(r.clip.used);
  EXPECT_TRUE(r.clip.byValue);
  EXPECT_DOUBLE_EQ(r.clip.limit, 0.001);
  EXPECT_TRUE(r.clip.bound);
  for (float g : r.firstAppliedGradient)
    EXPECT_LE(std::abs(g), 0.001f + 1e-7f);
}

TEST(Interpreter, NonBindingClipChangesNothing) {
  std::string code = kDivided;
  code.replace(code.find("    if ((i + 1)"), 0,
               "    torch::nn::utils::clip_grad_norm_(net.parameters(), 1e9);\n");
  GL_ANALYSE(a, code);
  interp::Execution r = run(a);
  ASSERT_EQ(r.problem, "");
  EXPECT_TRUE(r.clip.used);
  EXPECT_FALSE(r.clip.bound);
  EXPECT_LT(parameterError(r, reference(r)), 1e-6);
}

TEST(Interpreter, PerParameterAllReduceCountsEachCall) {
  GL_ANALYSE(a, R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs, c10d::ProcessGroup &pg) {
  torch::optim::SGD opt(net.parameters(), 0.1);
  const int accum = 4, world_size = 2;
  for (size_t i = 0; i < xs.size(); ++i) {
    (net.forward(xs[i]).pow(2).mean() / accum).backward();
    if ((i + 1) % accum == 0) {
      for (auto &p : net.parameters()) {
        std::vector<torch::Tensor> bucket{p.grad()};
        pg.allreduce(bucket)->wait();
        p.grad().div_(world_size);
      }
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  interp::Execution r = run(a);
  ASSERT_EQ(r.problem, "");
  EXPECT_EQ(r.worldSize, 2);
  // The runtime's model has 4 parameter tensors: one all-reduce each per step.
  EXPECT_DOUBLE_EQ(r.allReducesPerStep(), 4.0);
  EXPECT_FALSE(r.averagedOverRanks);
  // SUM then / W on every rank: the mean over ranks.
  EXPECT_LT(parameterError(r, reference(r, true)), 1e-5);
}

TEST(Interpreter, AverageReduceOpIsRead) {
  GL_ANALYSE(a, R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs, c10d::ProcessGroup &pg) {
  torch::optim::SGD opt(net.parameters(), 0.1);
  for (size_t i = 0; i < xs.size(); ++i) {
    (net.forward(xs[i]).pow(2).mean() / 2).backward();
    if (i % 2 == 1) {
      std::vector<torch::Tensor> grads;
      for (auto &p : net.parameters())
        grads.push_back(p.grad());
      c10d::AllreduceOptions options;
      options.reduceOp = c10d::ReduceOp::AVG;
      pg.allreduce(grads, options)->wait();
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  interp::Execution r = run(a);
  ASSERT_EQ(r.problem, "");
  EXPECT_TRUE(r.averagedOverRanks);
  EXPECT_DOUBLE_EQ(r.allReducesPerStep(), 1.0);
  EXPECT_TRUE(assumed(r, "W", "2") || !r.assumptions.empty());
  EXPECT_LT(parameterError(r, reference(r, true)), 1e-5);
}

TEST(Interpreter, StepFunctionFieldsPersistAcrossCalls) {
  GL_ANALYSE(a, R"cpp(
struct Trainer {
  Net net;
  torch::optim::SGD opt{net.parameters(), torch::optim::SGDOptions(0.05).momentum(0.9)};
  int every = 3;
  int count = 0;
  void train_step(const torch::Tensor &x) {
    auto loss = net.forward(x).pow(2).mean() / every;
    loss.backward();
    if (++count % every == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
};
)cpp");
  interp::Execution r = run(a);
  ASSERT_EQ(r.problem, "");
  EXPECT_EQ(r.accumulationSteps, 3);
  EXPECT_EQ(r.steps, 3);
  EXPECT_DOUBLE_EQ(r.optimizer.momentum, 0.9);
  EXPECT_LT(parameterError(r, reference(r)), 1e-5);
}

TEST(Interpreter, UnknownStepsAreAssumedAndListed) {
  GL_ANALYSE(a, R"cpp(
#include <cstdlib>
void train(Net &net, std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(net.parameters(), 0.1);
  int accum_steps = std::atoi(std::getenv("ACCUM"));
  for (size_t i = 0; i < xs.size(); ++i) {
    net.forward(xs[i]).sum().backward();
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  interp::Execution r = run(a);
  ASSERT_EQ(r.problem, "");
  EXPECT_TRUE(assumed(r, "accum_steps", "4"));
  EXPECT_TRUE(skippedMentions(r, "getenv"));
  EXPECT_NEAR(gradientRatio(r, reference(r)), 4.0, 1e-4);
}

TEST(Interpreter, ConditionOnDataIsNotExecutable) {
  GL_ANALYSE(a, R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(net.parameters(), 0.1);
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = net.forward(xs[i]).sum() / 4;
    loss.backward();
    if ((i + 1) % 4 == 0 && loss.item<float>() > 0.5f) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  interp::Execution r = run(a);
  EXPECT_NE(r.problem.find("cannot evaluate"), std::string::npos) << r.problem;
  EXPECT_NE(r.problem.find("line"), std::string::npos) << r.problem;
}

TEST(Interpreter, LoggingIsSkippedAndListed) {
  GL_ANALYSE(a, R"cpp(
void log_value(float v);
void train(Net &net, std::vector<torch::Tensor> &xs, int rank) {
  torch::optim::SGD opt(net.parameters(), 0.1);
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = net.forward(xs[i]).sum() / 4;
    loss.backward();
    if (rank == 0)
      log_value(loss.item<float>());
    if ((i + 1) % 4 == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  interp::Execution r = run(a);
  ASSERT_EQ(r.problem, "");
  EXPECT_TRUE(skippedMentions(r, "log_value"));
  EXPECT_TRUE(assumed(r, "rank", "0"));
  EXPECT_EQ(r.steps, 3);
}

TEST(Interpreter, NestedChunkLoopReadsEachChunk) {
  GL_ANALYSE(a, R"cpp(
void train(Net &net, std::vector<torch::Tensor> &batches) {
  torch::optim::SGD opt(net.parameters(), 0.1);
  for (auto &batch : batches) {
    for (auto &piece : batch.chunk(4))
      (net.forward(piece).pow(2).mean() / 4).backward();
    opt.step();
    opt.zero_grad();
  }
}
)cpp");
  interp::Execution r = run(a);
  ASSERT_EQ(r.problem, "");
  EXPECT_EQ(r.microBatches, 12);
  EXPECT_EQ(r.steps, 3);
  EXPECT_LT(parameterError(r, reference(r)), 1e-5);
}

TEST(Interpreter, TwoOptimizersRunTheLoopOptimizersModel) {
  // A GAN-like pair: the discriminator steps every micro-batch on its own
  // model; the generator's window runs on the compared model, and the
  // discriminator's loss (whose input is data) adds nothing to it.

  GL_ANALYSE(a, R"cpp(
void train(Net &g, Net &d, std::vector<torch::Tensor> &xs) {
  torch::optim::SGD gen(g.parameters(), 0.1), disc(d.parameters(), 0.1);
  for (size_t i = 0; i < xs.size(); ++i) {
    d.forward(xs[i]).mean().backward();
    disc.step();
    disc.zero_grad();
    (g.forward(xs[i]).mean() / 4).backward();
    if ((i + 1) % 4 == 0) {
      gen.step();
      gen.zero_grad();
    }
  }
}
)cpp");
  ASSERT_GE(a.loops().size(), 1u);
  size_t windowed = 0;
  while (windowed + 1 < a.loops().size() && !a.loops()[windowed].hasWindow())
    ++windowed;
  interp::Execution r = run(a, 3, windowed);
  ASSERT_TRUE(r.problem.empty()) << r.problem;
  EXPECT_EQ(r.steps, 3);
  EXPECT_TRUE(assumed(r, "disc", "another model, not run"));
  EXPECT_LT(parameterError(r, reference(r)), 1e-5);
}

TEST(Interpreter, StepLRFollowsTheCodesCalls) {
  // StepLR(step_size=1, gamma=0.5) stepped once per window matches the
  // reference; stepped on every micro-batch it halves the rate N times too often.
  const std::string perWindow = R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::StepLR schedule(opt, 1, 0.5);
  for (size_t i = 0; i < xs.size(); ++i) {
    (net.forward(xs[i]).pow(2).mean() / 4).backward();
    if ((i + 1) % 4 == 0) {
      opt.step();
      opt.zero_grad();
      schedule.step();
    }
  }
}
)cpp";
  GL_ANALYSE(a, perWindow);
  interp::Execution r = run(a);
  ASSERT_EQ(r.problem, "");
  ASSERT_TRUE(r.scheduler.has_value());
  EXPECT_EQ(r.scheduler->stepSize, 1);
  EXPECT_DOUBLE_EQ(r.scheduler->gamma, 0.5);
  EXPECT_LT(parameterError(r, reference(r)), 1e-6);
  std::string everyMicroBatch = perWindow;
  everyMicroBatch.replace(everyMicroBatch.find("      schedule.step();\n"), 23, "");
  everyMicroBatch.replace(everyMicroBatch.find("    if ((i + 1)"), 0, "    schedule.step();\n");
  GL_ANALYSE(b, everyMicroBatch);
  interp::Execution fast = run(b);
  ASSERT_EQ(fast.problem, "");
  ASSERT_TRUE(fast.scheduler.has_value());
  EXPECT_GT(parameterError(fast, reference(fast)), 1e-2);
}

TEST(Interpreter, ConstantsFromEveryCallSite) {
  // N and the learning rate reach the trainer through its constructor; the one
  // construction in the file passes constants.
  GL_ANALYSE(a, R"cpp(
class Trainer {
public:
  Trainer(Net &net, int accum, double lr)
      : net_(net), opt_(net.parameters(), torch::optim::SGDOptions(lr)), accum_(accum) {}
  void step(const torch::Tensor &x) {
    net_.forward(x).pow(2).mean().backward();
    if (++seen_ % accum_ == 0) {
      opt_.step();
      opt_.zero_grad();
    }
  }

private:
  Net &net_;
  torch::optim::SGD opt_;
  int accum_;
  int seen_ = 0;
};
void run(Net &net, std::vector<torch::Tensor> &xs) {
  Trainer trainer(net, 8, 0.2);
  for (auto &x : xs)
    trainer.step(x);
}
)cpp");
  interp::Execution r = run(a);
  ASSERT_EQ(r.problem, "");
  EXPECT_EQ(r.accumulationSteps, 8);
  EXPECT_DOUBLE_EQ(r.optimizer.lr, 0.2);
  EXPECT_FALSE(assumed(r, "accum_", "4"));
  EXPECT_NEAR(gradientRatio(r, reference(r)), 8.0, 1e-4);
}

// ---- whole epochs (accum-trailing-micro-batches)

namespace {

const char *const kTwoEpochs = R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  const int accum = 4;
  for (int epoch = 0; epoch < 2; ++epoch)
    for (int i = 0; i < 10; ++i) {
      const int window = i < 8 ? accum : 2;
      auto loss = net.forward(xs[i]).pow(2).mean() / WINDOW;
      loss.backward();
      if ((i + 1) % accum == 0 GUARD) {
        opt.step();
        opt.zero_grad();
      }
    }
}
)cpp";

std::string twoEpochs(const std::string &window, const std::string &guard) {
  std::string code = kTwoEpochs;
  code.replace(code.find("WINDOW"), 6, window);
  code.replace(code.find("GUARD"), 5, guard);
  return code;
}

interp::Execution runEpochs(Analysis &analysis) {
  interp::ExecutionSetting setting;
  setting.backend = &runtime::cpuBackend();
  setting.epochMicroBatches = 10;
  setting.epochs = 2;
  for (const TrainingLoop &loop : analysis.loops())
    if (loop.hasWindow())
      return interp::execute(*interp::translateLoop(loop, analysis.builder().facts()), setting);
  ADD_FAILURE() << analysis.dump();
  return {};
}

} // namespace

TEST(Interpreter, EpochsWithoutALastBatchStepLeakTheirTail) {
  GL_ANALYSE(a, twoEpochs("accum", ""));
  interp::Execution r = runEpochs(a);
  ASSERT_EQ(r.problem, "");
  EXPECT_EQ(r.epochSizes, (std::vector<int>{10, 10}));
  EXPECT_EQ(r.steps, 4);
  EXPECT_EQ(r.fates.leaked, 2);   // epoch 1's last 2, stepped in epoch 2's first window
  EXPECT_EQ(r.fates.leftOver, 2); // epoch 2's last 2
  EXPECT_EQ(r.fates.discarded, 0);
  EXPECT_EQ(r.fates.total(), 20);
}

TEST(Interpreter, LastBatchStepWithItsOwnMeanMatchesTheEpochReference) {
  GL_ANALYSE(a, twoEpochs("window", "|| i + 1 == 10"));
  interp::Execution r = runEpochs(a);
  ASSERT_EQ(r.problem, "");
  EXPECT_EQ(r.steps, 6);
  EXPECT_EQ(r.fates.stepped, 20);
  EXPECT_EQ(r.fates.leaked + r.fates.leftOver + r.fates.discarded, 0);
  interp::ExecutionSetting setting;
  setting.backend = &runtime::cpuBackend();
  interp::Execution ref =
      interp::referenceEpochRun(r.optimizer, 4, 1, true, r.clip, setting, r.epochSizes);
  EXPECT_EQ(ref.steps, 6);
  EXPECT_LT(parameterError(r, ref), 1e-6);
  // Divided by N, the short window weighs r/N: the run departs from the reference.
  GL_ANALYSE(b, twoEpochs("accum", "|| i + 1 == 10"));
  interp::Execution byN = runEpochs(b);
  EXPECT_GT(parameterError(byN, ref), 1e-3);
}

// ---- hand-written gradient buffers

const char *const kBuffer = R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(net.parameters(), torch::optim::SGDOptions(0.1));
  const int accum = 4;
  std::vector<torch::Tensor> params = net.parameters(), acc;
  for (auto &p : params) acc.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < xs.size(); ++i) {
    net.forward(xs[i]).pow(2).mean().backward();
    for (size_t k = 0; k < params.size(); ++k) {
      acc[k] += params[k].grad();
      RESET
    }
    if ((i + 1) % accum == 0) {
      for (size_t k = 0; k < params.size(); ++k) {
        WRITE_BACK
      }
      opt.step();
      opt.zero_grad();
      for (auto &b : acc) b.zero_();
    }
  }
}
)cpp";

std::string bufferLoop(const std::string &reset, const std::string &writeBack) {
  std::string code = kBuffer;
  code.replace(code.find("RESET"), 5, reset);
  code.replace(code.find("WRITE_BACK"), 10, writeBack);
  return code;
}

TEST(Interpreter, BufferWithAResetAfterEachAddIsTheLargeBatchGradient) {
  GL_ANALYSE(a,
             bufferLoop("params[k].grad().zero_();", "params[k].mutable_grad() = acc[k] / accum;"));
  interp::Execution r = run(a);
  ASSERT_EQ(r.problem, "");
  EXPECT_EQ(r.steps, 3);
  interp::Execution ref = reference(r);
  EXPECT_NEAR(gradientRatio(r, ref), 1.0, 1e-5);
  EXPECT_LT(parameterError(r, ref), 1e-5);
}

TEST(Interpreter, BufferWithoutAResetCountsEarlyMicroBatchesAgain) {
  GL_ANALYSE(a, bufferLoop("", "params[k].mutable_grad() = acc[k] / accum;"));
  interp::Execution r = run(a);
  ASSERT_EQ(r.problem, "");
  // Weights 4, 3, 2, 1 over 4: about 2.5 times the mean on similar micro-batches.
  EXPECT_GT(gradientRatio(r, reference(r)), 2.0);
}

TEST(Interpreter, ABufferElementAssignedFromItselfKeepsItsValues) {
  // `acc[k] = acc[k] * 0.5` reads the slot it overwrites.
  GL_ANALYSE(a, bufferLoop("params[k].grad().zero_();",
                           "acc[k] = acc[k] * 0.5; params[k].grad().copy_(acc[k] * 2.0 / accum);"));
  interp::Execution r = run(a);
  ASSERT_EQ(r.problem, "");
  EXPECT_NEAR(gradientRatio(r, reference(r)), 1.0, 1e-5);
}
