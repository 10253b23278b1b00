// Unit tests of the program-level fixes the interpreter applies as it runs
// the loop's own code (ExecutionSetting::fixes, ConfirmationPlan::ProgramFix):
// --confirm's fixed side for a finding without a fix-it. Each test runs a
// buggy snippet as written (it departs from the large-batch reference) and
// with its check's fix (it matches).
#include "ModelTestSupport.h"

#include "checks/Check.h"
#include "confirm/interpreter/Execute.h"
#include "confirm/interpreter/Translate.h"

#include "runtime/Metrics.h"
#include "runtime/kernels/Backend.h"

using namespace gradlint;
using namespace gradlint::test;

namespace {

struct Runs {
  interp::Execution asWritten, withFix, reference;
};

/// The snippet's loop as written and with the fix `check` declares, and the
/// reference (the mean over ranks) for the fixed run's optimizer and clip.
Runs runBothWays(Analysis &analysis, const std::string &check) {
  Runs runs;
  EXPECT_EQ(analysis.loops().size(), 1u) << analysis.dump();
  if (analysis.loops().size() != 1)
    return runs;
  auto code = interp::translateLoop(analysis.loops().front(), analysis.builder().facts());
  interp::ExecutionSetting setting;
  setting.backend = &runtime::cpuBackend();
  setting.windows = 3;
  runs.asWritten = interp::execute(*code, setting);
  ConfirmationPlan::ProgramFix fix = confirmationPlanOf(check).programFix;
  EXPECT_NE(fix, ConfirmationPlan::ProgramFix::None) << check;
  setting.fixes.push_back(fix);
  runs.withFix = interp::execute(*code, setting);
  runs.reference = interp::referenceRun(runs.withFix.optimizer, runs.withFix.accumulationSteps,
                                        runs.withFix.worldSize, /*meanOverRanks=*/true,
                                        runs.withFix.clip, setting, runs.withFix.scheduler);
  return runs;
}

double parameterError(const interp::Execution &a, const interp::Execution &b) {
  if (a.windowTrace.empty() || b.windowTrace.empty())
    return 1.0;
  return runtime::compare(a.windowTrace.back(), b.windowTrace.back()).relativeError;
}

void expectFixRestoresTheReference(const Runs &runs) {
  ASSERT_EQ(runs.asWritten.problem, "");
  ASSERT_EQ(runs.withFix.problem, "");
  EXPECT_EQ(runs.withFix.steps, 3);
  EXPECT_LT(parameterError(runs.withFix, runs.reference), 1e-5);
}

} // namespace

TEST(ProgramFixRuns, ResetMovesRightAfterStep) {
  GL_ANALYSE(a, R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(net.parameters(), 0.1);
  for (size_t i = 0; i < xs.size(); ++i) {
    opt.zero_grad();
    (net.forward(xs[i]).pow(2).mean() / 4).backward();
    if ((i + 1) % 4 == 0)
      opt.step();
  }
}
)cpp");
  Runs runs = runBothWays(a, "accum-misplaced-zero-grad");
  expectFixRestoresTheReference(runs);
  EXPECT_GT(parameterError(runs.asWritten, runs.reference), 1e-3);
}

TEST(ProgramFixRuns, EveryLossIsDividedByN) {
  GL_ANALYSE(a, R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(net.parameters(), 0.1);
  for (size_t i = 0; i < xs.size(); ++i) {
    net.forward(xs[i]).pow(2).mean().backward();
    if ((i + 1) % 4 == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  Runs runs = runBothWays(a, "accum-missing-loss-division");
  expectFixRestoresTheReference(runs);
  EXPECT_NEAR(
      runtime::compare(runs.asWritten.firstAppliedGradient, runs.reference.firstAppliedGradient)
          .normRatio,
      4.0, 1e-3);
}

TEST(ProgramFixRuns, ClipRunsOnceBeforeStep) {
  GL_ANALYSE(a, R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(net.parameters(), 0.1);
  for (size_t i = 0; i < xs.size(); ++i) {
    (net.forward(xs[i]).pow(2).mean() / 4).backward();
    torch::nn::utils::clip_grad_norm_(net.parameters(), 0.01);
    if ((i + 1) % 4 == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  Runs runs = runBothWays(a, "accum-per-micro-batch-clip");
  expectFixRestoresTheReference(runs);
  EXPECT_TRUE(runs.withFix.clip.used);
  EXPECT_TRUE(runs.withFix.clip.bound);
  EXPECT_GT(parameterError(runs.asWritten, runs.reference), 1e-4);
}

TEST(ProgramFixRuns, SyncAndItsDivisionRunOnceBeforeStep) {
  // SUM then / W on every micro-batch: the values match, the traffic is N times.
  GL_ANALYSE(a, R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs, c10d::ProcessGroup &pg) {
  torch::optim::SGD opt(net.parameters(), 0.1);
  const int accum = 4, world_size = 2;
  for (size_t i = 0; i < xs.size(); ++i) {
    (net.forward(xs[i]).pow(2).mean() / accum).backward();
    std::vector<torch::Tensor> grads;
    for (auto &p : net.parameters())
      grads.push_back(p.grad());
    pg.allreduce(grads)->wait();
    for (auto &p : net.parameters())
      p.grad().div_(world_size);
    if ((i + 1) % accum == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp");
  Runs runs = runBothWays(a, "accum-unguarded-grad-sync");
  expectFixRestoresTheReference(runs);
  EXPECT_DOUBLE_EQ(runs.asWritten.gradientAllReducesPerStep(), 4.0);
  EXPECT_DOUBLE_EQ(runs.withFix.gradientAllReducesPerStep(), 1.0);
}

namespace {

/// A loop whose boundary averages the gradients over the ranks (an AVG
/// all-reduce); `divisor` divides each loss, `afterAverage` runs after it.
std::string averagingLoop(const std::string &divisor, const std::string &afterAverage) {
  return R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs, c10d::ProcessGroup &pg) {
  torch::optim::SGD opt(net.parameters(), 0.1);
  const int accum = 4;
  const int world_size = pg.getSize();
  for (size_t i = 0; i < xs.size(); ++i) {
    (net.forward(xs[i]).pow(2).mean() / )cpp" +
         divisor + R"cpp().backward();
    if ((i + 1) % accum == 0) {
      std::vector<torch::Tensor> grads;
      for (auto &p : net.parameters())
        grads.push_back(p.grad());
      c10d::AllreduceOptions options;
      options.reduceOp = c10d::ReduceOp::AVG;
      pg.allreduce(grads, options)->wait();
)cpp" + afterAverage +
         R"cpp(
      opt.step();
      opt.zero_grad();
    }
  }
}
)cpp";
}

} // namespace

TEST(ProgramFixRuns, LossDividedByWBeforeAnAverageIsTakenOnce) {
  GL_ANALYSE(a, averagingLoop("(accum * world_size)", ""));
  Runs runs = runBothWays(a, "accum-double-world-size-scaling");
  expectFixRestoresTheReference(runs);
  EXPECT_NEAR(
      runtime::compare(runs.asWritten.firstAppliedGradient, runs.reference.firstAppliedGradient)
          .normRatio,
      0.5, 1e-3);
}

TEST(ProgramFixRuns, SecondDivisionOfTheGradientsByWIsDropped) {
  GL_ANALYSE(a, averagingLoop("accum", "      for (auto &p : net.parameters())\n"
                                       "        p.grad().div_(world_size);"));
  Runs runs = runBothWays(a, "accum-double-world-size-scaling");
  expectFixRestoresTheReference(runs);
  EXPECT_GT(parameterError(runs.asWritten, runs.reference), 1e-3);
}

TEST(ProgramFixRuns, ChecksWithoutAProgramLevelFixNameNone) {
  EXPECT_EQ(confirmationPlanOf("accum-no-such-check").programFix,
            ConfirmationPlan::ProgramFix::None);
  EXPECT_EQ(confirmationPlanOf("accum-trailing-micro-batches").programFix,
            ConfirmationPlan::ProgramFix::None);
}
