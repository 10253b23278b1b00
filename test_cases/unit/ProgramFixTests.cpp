// Unit tests of the loop summary's lowering (confirm/Lowering.cpp) and of the
// program-level fixes (confirm/ProgramFixes.cpp) that --confirm uses for a
// finding without a fix-it: each fix is pinned on the lowered program it edits.
#include "ModelTestSupport.h"

#include "checks/Check.h"
#include "confirm/Lowering.h"
#include "confirm/ProgramFixes.h"

using namespace gradlint;
using namespace gradlint::test;

namespace {

std::string lowered(const std::string &body) {
  Analysis analysis(body);
  EXPECT_TRUE(analysis.parsed());
  EXPECT_EQ(analysis.loops().size(), 1u) << analysis.dump();
  if (analysis.loops().size() != 1)
    return "";
  return lowerLoop(analysis.loops().front()).program.describe();
}

std::string fixed(const std::string &check, runtime::LoopProgram program) {
  // Each check's own confirmation plan names its program-level fix.
  const ProgramFix *fix = programFixFor(confirmationPlanOf(check).summaryFix);
  EXPECT_NE(fix, nullptr) << check;
  if (fix)
    (*fix)(program);
  return program.describe();
}

runtime::LoopOp op(runtime::OpKind kind, runtime::OpWhen when = runtime::OpWhen::EveryMicroBatch) {
  runtime::LoopOp result;
  result.kind = kind;
  result.when = when;
  return result;
}

runtime::LoopProgram program(std::vector<runtime::LoopOp> ops, int worldSize = 1) {
  runtime::LoopProgram result;
  result.steps = 4;
  result.worldSize = worldSize;
  result.ops = std::move(ops);
  return result;
}

} // namespace

TEST(Lowering, EventsInOrderWithTheirConditions) {
  EXPECT_EQ(lowered(R"cpp(
void train(Net &net, std::vector<torch::Tensor> &xs) {
  torch::optim::SGD opt(net.parameters(), 0.1);
  for (size_t i = 0; i < xs.size(); ++i) {
    opt.zero_grad();
    (net.forward(xs[i]).sum() / 4).backward();
    if ((i + 1) % 4 == 0)
      opt.step();
  }
}
)cpp"),
            "reset[every]; backward[every]/N; step[boundary]");
}

TEST(ProgramFixes, MisplacedResetMovesAfterStep) {
  using K = runtime::OpKind;
  using W = runtime::OpWhen;
  EXPECT_EQ(fixed("accum-misplaced-zero-grad",
                  program({op(K::GradReset), op(K::Backward), op(K::Step, W::Boundary)})),
            "backward[every]; step[boundary]; reset[boundary]");
}

TEST(ProgramFixes, MissingDivisionDividesEveryBackward) {
  using K = runtime::OpKind;
  EXPECT_EQ(fixed("accum-missing-loss-division",
                  program({op(K::Backward), op(K::Step, runtime::OpWhen::Boundary)})),
            "backward[every]/N; step[boundary]");
}

TEST(ProgramFixes, ClipMovesBeforeTheBoundaryStep) {
  using K = runtime::OpKind;
  using W = runtime::OpWhen;
  EXPECT_EQ(fixed("accum-per-micro-batch-clip",
                  program({op(K::Backward), op(K::Clip), op(K::Step, W::Boundary),
                           op(K::GradReset, W::Boundary)})),
            "backward[every]; clip[boundary]; step[boundary]; reset[boundary]");
}

TEST(ProgramFixes, SyncAndItsAverageMoveToTheBoundary) {
  using K = runtime::OpKind;
  using W = runtime::OpWhen;
  runtime::LoopOp divide = op(K::GradDivide);
  divide.dividesByWorldSize = true;
  EXPECT_EQ(
      fixed("accum-unguarded-grad-sync",
            program({op(K::Backward), op(K::AllReduce), divide, op(K::Step, W::Boundary)}, 2)),
      "backward[every]; all-reduce[boundary](sum); grad-divide[boundary]/W; step[boundary]");
}

TEST(ProgramFixes, DoubleWorldSizeKeepsOneAveraging) {
  using K = runtime::OpKind;
  using W = runtime::OpWhen;
  runtime::LoopOp backward = op(K::Backward);
  backward.dividesBySteps = backward.dividesByWorldSize = true;
  runtime::LoopOp average = op(K::AllReduce, W::Boundary);
  average.reduceOp = runtime::ReduceOp::Avg;
  EXPECT_EQ(fixed("accum-double-world-size-scaling",
                  program({backward, average, op(K::Step, W::Boundary)}, 2)),
            "backward[every]/N; all-reduce[boundary](avg); step[boundary]");
}

TEST(ProgramFixes, ChecksWithoutASummaryFixHaveNone) {
  EXPECT_EQ(programFixFor(confirmationPlanOf("accum-no-such-check").summaryFix), nullptr);
  EXPECT_EQ(programFixFor(confirmationPlanOf("accum-trailing-micro-batches").summaryFix), nullptr);
}
