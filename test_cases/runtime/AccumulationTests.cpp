// Accumulation semantics: the large-batch reference identity and the numeric
// signatures the checks rely on.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace gradlint::runtime;
using namespace gradlint::runtime::test;

namespace {

struct AccumCase {
  Architecture arch;
  LossKind loss;
};

class Accumulation : public testing::TestWithParam<AccumCase> {
protected:
  static constexpr int kIn = 6, kHidden = 8, kOut = 4, kMicro = 5, kN = 4;

  Model makeModel() const {
    return GetParam().arch == Architecture::Linear ? Model::linear(kIn, kOut, 21)
                                                   : Model::mlp(kIn, kHidden, kOut, 21);
  }
  TaskKind task() const {
    return GetParam().loss == LossKind::Mse ? TaskKind::Regression : TaskKind::Classification;
  }
  std::vector<Batch> microBatches() const {
    std::vector<Batch> out;
    for (int i = 0; i < kN; ++i)
      out.push_back(makeBatch(77, i, kMicro, kIn, kOut, task()));
    return out;
  }
};

TEST_P(Accumulation, ScaledMicroBatchesEqualLargeBatchMean) {
  const Model model = makeModel();
  const std::vector<Batch> micro = microBatches();
  const LossKind loss = GetParam().loss;

  GradBuffer accumulated(model);
  for (const Batch &b : micro)
    forwardBackward(model, b, loss, Reduction::Mean, 1.0f / kN, accumulated);

  GradBuffer reference(model);
  forwardBackward(model, Batch::concat(micro), loss, Reduction::Mean, 1.0f, reference);

  EXPECT_LT(relativeError(accumulated.flatten(), reference.flatten()), 1e-6);
  for (size_t t = 0; t < model.numParams(); ++t)
    EXPECT_LT(relativeError(accumulated.tensor(t).values(), reference.tensor(t).values()), 1e-6)
        << model.paramName(t);
}

TEST_P(Accumulation, UnscaledMicroBatchesGiveNTimesTheReference) {
  const Model model = makeModel();
  const std::vector<Batch> micro = microBatches();
  const LossKind loss = GetParam().loss;

  GradBuffer accumulated(model);
  for (const Batch &b : micro)
    forwardBackward(model, b, loss, Reduction::Mean, 1.0f, accumulated);
  GradBuffer reference(model);
  forwardBackward(model, Batch::concat(micro), loss, Reduction::Mean, 1.0f, reference);

  EXPECT_LT(relativeError(accumulated.flatten(), scaled(reference.flatten(), kN)), 1e-6);
  EXPECT_NEAR(accumulated.norm() / reference.norm(), static_cast<double>(kN), 1e-5);
  // The numbers a diagnosis reports: "4.000x the large-batch gradient, cosine 1".
  const Comparison c = compareGradients(accumulated, reference);
  EXPECT_NEAR(c.normRatio, static_cast<double>(kN), 1e-5);
  EXPECT_NEAR(c.cosine, 1.0, 1e-9);
  EXPECT_NEAR(c.relativeError, kN - 1.0, 1e-5);
}

TEST_P(Accumulation, SumReductionAddsUp) {
  const Model model = makeModel();
  const std::vector<Batch> micro = microBatches();
  GradBuffer accumulated(model);
  for (const Batch &b : micro)
    forwardBackward(model, b, GetParam().loss, Reduction::Sum, 1.0f, accumulated);
  GradBuffer reference(model);
  forwardBackward(model, Batch::concat(micro), GetParam().loss, Reduction::Sum, 1.0f, reference);
  EXPECT_LT(relativeError(accumulated.flatten(), reference.flatten()), 1e-6);
}

TEST_P(Accumulation, ZeroingEveryMicroBatchKeepsOnlyTheLast) {
  // accum-misplaced-zero-grad: applied gradient == last micro-batch's / N.
  const Model model = makeModel();
  const std::vector<Batch> micro = microBatches();
  GradBuffer grads(model);
  for (const Batch &b : micro) {
    grads.zero();
    forwardBackward(model, b, GetParam().loss, Reduction::Mean, 1.0f / kN, grads);
  }
  GradBuffer last(model);
  forwardBackward(model, micro.back(), GetParam().loss, Reduction::Mean, 1.0f / kN, last);
  EXPECT_TRUE(grads.bitwiseEqual(last));
  GradBuffer reference(model);
  forwardBackward(model, Batch::concat(micro), GetParam().loss, Reduction::Mean, 1.0f, reference);
  EXPECT_GT(relativeError(grads.flatten(), reference.flatten()), 0.1);
}

INSTANTIATE_TEST_SUITE_P(AllModelsAndLosses, Accumulation,
                         testing::Values(AccumCase{Architecture::Linear, LossKind::Mse},
                                         AccumCase{Architecture::Linear, LossKind::CrossEntropy},
                                         AccumCase{Architecture::Mlp, LossKind::Mse},
                                         AccumCase{Architecture::Mlp, LossKind::CrossEntropy}),
                         [](const testing::TestParamInfo<AccumCase> &info) {
                           return std::string(info.param.arch == Architecture::Linear ? "Linear"
                                                                                      : "Mlp") +
                                  (info.param.loss == LossKind::Mse ? "_Mse" : "_CrossEntropy");
                         });

TEST(AccumulationSteps, DividingGradientsAtTheBoundaryEqualsDividingTheLoss) {
  // The correct alternative of accum-missing-loss-division: grad.div_(N) before step().
  const Model model = Model::mlp(3, 5, 2, 4);
  const int N = 3;
  std::vector<Batch> micro;
  for (int i = 0; i < N; ++i)
    micro.push_back(makeBatch(8, i, 4, 3, 2, TaskKind::Regression));
  GradBuffer byLoss(model), byGrad(model);
  for (const Batch &b : micro) {
    forwardBackward(model, b, LossKind::Mse, Reduction::Mean, 1.0f / N, byLoss);
    forwardBackward(model, b, LossKind::Mse, Reduction::Mean, 1.0f, byGrad);
  }
  byGrad.scale(1.0f / N);
  EXPECT_LT(relativeError(byGrad.flatten(), byLoss.flatten()), 1e-6);
}

TEST(AccumulationSteps, AccumulatedSgdStepMatchesLargeBatchStep) {
  // Whole accumulation window with momentum SGD and AdamW, two windows long.
  const int N = 4;
  for (int opt = 0; opt < 2; ++opt) {
    Model accum = Model::mlp(4, 6, 3, 10), large = accum;
    Sgd sgdA(0.1, 0.9), sgdL(0.1, 0.9);
    AdamW adamA(AdamOptions{}), adamL(AdamOptions{});
    GradBuffer gA(accum), gL(large);
    for (int window = 0; window < 2; ++window) {
      std::vector<Batch> micro;
      for (int i = 0; i < N; ++i)
        micro.push_back(makeBatch(5, window * N + i, 3, 4, 3, TaskKind::Classification));
      gA.zero();
      for (const Batch &b : micro)
        forwardBackward(accum, b, LossKind::CrossEntropy, Reduction::Mean, 1.0f / N, gA);
      gL.zero();
      forwardBackward(large, Batch::concat(micro), LossKind::CrossEntropy, Reduction::Mean, 1.0f,
                      gL);
      if (opt == 0) {
        sgdA.step(accum, gA);
        sgdL.step(large, gL);
      } else {
        adamA.step(accum, gA);
        adamL.step(large, gL);
      }
    }
    EXPECT_LT(relativeError(flatParams(accum), flatParams(large)), 1e-6) << "optimizer " << opt;
    EXPECT_LT(compareParameters(accum, large).relativeError, 1e-6);
  }
}

TEST(AccumulationSteps, ComparisonEdgeCases) {
  const Comparison same = compare({1.0f, -2.0f}, {1.0f, -2.0f});
  EXPECT_EQ(same.normRatio, 1.0);
  EXPECT_NEAR(same.cosine, 1.0, 1e-15);
  EXPECT_EQ(same.relativeError, 0.0);
  const Comparison half = compare({0.5f, 0.0f}, {1.0f, 0.0f});
  EXPECT_EQ(half.normRatio, 0.5);
  EXPECT_EQ(half.relativeError, 0.5);
  EXPECT_EQ(half.maxAbsDiff, 0.5);
  const Comparison ortho = compare({0.0f, 1.0f}, {1.0f, 0.0f});
  EXPECT_EQ(ortho.cosine, 0.0);
  EXPECT_EQ(compare({0.0f}, {0.0f}).normRatio, 1.0);
  EXPECT_TRUE(std::isinf(compare({1.0f}, {0.0f}).normRatio));
  EXPECT_THROW(compare({1.0f}, {1.0f, 2.0f}), std::invalid_argument);
  Model before = Model::linear(2, 1, 0), after = before;
  after.param(1)[0] += 0.25f;
  const std::vector<float> delta = parameterDelta(before, after);
  EXPECT_EQ(delta, (std::vector<float>{0.0f, 0.0f, after.param(1)[0] - before.param(1)[0]}));
}

TEST(AccumulationSteps, PerMicroBatchClipDiffersFromClippingTheWindow) {
  // accum-per-micro-batch-clip: partial norms above max_norm change the update.
  const Model model = Model::linear(4, 2, 3);
  const int N = 4;
  const double maxNorm = 0.05;
  std::vector<Batch> micro;
  for (int i = 0; i < N; ++i)
    micro.push_back(makeBatch(6, i, 4, 4, 2, TaskKind::Regression));
  GradBuffer perMicro(model), atBoundary(model);
  for (const Batch &b : micro) {
    forwardBackward(model, b, LossKind::Mse, Reduction::Mean, 1.0f / N, perMicro);
    const double partial = clipGradNorm(perMicro, maxNorm);
    EXPECT_GT(partial, maxNorm);
    forwardBackward(model, b, LossKind::Mse, Reduction::Mean, 1.0f / N, atBoundary);
  }
  clipGradNorm(atBoundary, maxNorm);
  EXPECT_NEAR(atBoundary.norm(), maxNorm, 1e-6);
  EXPECT_GT(relativeError(perMicro.flatten(), atBoundary.flatten()), 0.01);
}

} // namespace
