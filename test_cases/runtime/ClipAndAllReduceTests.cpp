// clipGradNorm / clipGradValue and the simulated process group.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace gradlint::runtime;

namespace {

// Two tensors: [3, 4] and [0] -> total L2 norm 5.
GradBuffer threeFour(DType dtype = DType::F32) {
  GradBuffer g(std::vector<Shape>{{2}, {1}}, dtype);
  g.set(0, Tensor(Shape{2}, {3.0f, 4.0f}));
  g.set(1, Tensor(Shape{1}, {0.0f}));
  return g;
}

TEST(Clip, GradNormScalesByMaxNormOverNormPlusEps) {
  GradBuffer g = threeFour();
  const double norm = clipGradNorm(g, 1.0);
  EXPECT_DOUBLE_EQ(norm, 5.0);
  const float coef = static_cast<float>(1.0 / (5.0 + 1e-6));
  EXPECT_EQ(g.tensor(0)[0], 3.0f * coef);
  EXPECT_EQ(g.tensor(0)[1], 4.0f * coef);
  EXPECT_EQ(g.tensor(1)[0], 0.0f);
  EXPECT_NEAR(g.norm(), 1.0, 1e-6);
  EXPECT_LT(g.norm(), 1.0);
}

TEST(Clip, GradNormLeavesSmallGradientsAlone) {
  GradBuffer g = threeFour();
  const GradBuffer before = g;
  EXPECT_DOUBLE_EQ(clipGradNorm(g, 10.0), 5.0);
  EXPECT_TRUE(g.bitwiseEqual(before));
  // max_norm == norm: coef = 5 / (5 + 1e-6) < 1, so PyTorch still scales (slightly).
  GradBuffer h = threeFour();
  clipGradNorm(h, 5.0);
  EXPECT_LT(h.tensor(0)[1], 4.0f);
  EXPECT_NEAR(h.tensor(0)[1], 4.0f, 1e-5);
  EXPECT_THROW(clipGradNorm(h, -1.0), std::invalid_argument);
}

TEST(Clip, GradValueClampsEveryElement) {
  GradBuffer g(std::vector<Shape>{{4}, {2}});
  g.set(0, Tensor(Shape{4}, {3.0f, -4.0f, 0.25f, -0.5f}));
  g.set(1, Tensor(Shape{2}, {0.5f, 1e-3f}));
  clipGradValue(g, 0.5);
  const std::vector<float> expected = {0.5f, -0.5f, 0.25f, -0.5f, 0.5f, 1e-3f};
  EXPECT_EQ(g.flatten(), expected);
  EXPECT_THROW(clipGradValue(g, -0.1), std::invalid_argument);
}

TEST(Clip, GradNormInHalfStorageRoundsTheScaledValues) {
  GradBuffer g = threeFour(DType::F16);
  clipGradNorm(g, 1.0);
  // 3 / 5.000001 = 0.59999988 -> nearest half 0.60009765625; 4/5.000001 -> 0.7998046875.
  EXPECT_EQ(g.tensor(0)[0], 0.60009765625f);
  EXPECT_EQ(g.tensor(0)[1], 0.7998046875f);
}

std::vector<GradBuffer> rankBuffers(int world, DType dtype = DType::F32) {
  std::vector<GradBuffer> ranks;
  for (int r = 0; r < world; ++r) {
    GradBuffer g(std::vector<Shape>{{2, 2}, {3}}, dtype);
    g.set(0, Tensor(Shape{2, 2}, {1.0f + r, 2.0f * r, -1.0f, 0.5f * r}));
    g.set(1, Tensor(Shape{3}, {static_cast<float>(r), 10.0f, 0.25f}));
    ranks.push_back(g);
  }
  return ranks;
}

std::vector<GradBuffer *> pointers(std::vector<GradBuffer> &v) {
  std::vector<GradBuffer *> p;
  for (GradBuffer &g : v)
    p.push_back(&g);
  return p;
}

TEST(AllReduce, SumGivesEveryRankTheSum) {
  std::vector<GradBuffer> ranks = rankBuffers(3);
  ProcessGroup pg(3);
  std::vector<GradBuffer *> ptrs = pointers(ranks);
  pg.allReduce(ptrs, ReduceOp::Sum);
  // ranks 0, 1, 2: [1+r, 2r, -1, 0.5r] -> [6, 6, -3, 1.5]; [r, 10, 0.25] -> [3, 30, 0.75]
  const std::vector<float> expected = {6.0f, 6.0f, -3.0f, 1.5f, 3.0f, 30.0f, 0.75f};
  for (const GradBuffer &g : ranks)
    EXPECT_EQ(g.flatten(), expected);
  EXPECT_EQ(pg.calls(), 1u);
  EXPECT_EQ(pg.bytes(), 7u * 4u); // one rank's payload: 7 fp32 elements
}

TEST(AllReduce, AvgGivesEveryRankTheMean) {
  std::vector<GradBuffer> ranks = rankBuffers(4);
  ProcessGroup pg(4);
  std::vector<GradBuffer *> ptrs = pointers(ranks);
  pg.allReduce(ptrs, ReduceOp::Avg);
  // ranks 0..3: [1+r, 2r, -1, 0.5r] -> [2.5, 3, -1, 0.75]; [r, 10, 0.25] -> [1.5, 10, 0.25]
  const std::vector<float> expected = {2.5f, 3.0f, -1.0f, 0.75f, 1.5f, 10.0f, 0.25f};
  for (const GradBuffer &g : ranks)
    EXPECT_EQ(g.flatten(), expected);
  pg.allReduce(ptrs, ReduceOp::Avg); // idempotent on equal values
  for (const GradBuffer &g : ranks)
    EXPECT_EQ(g.flatten(), expected);
  EXPECT_EQ(pg.calls(), 2u);
  EXPECT_EQ(pg.bytes(), 2u * 7u * 4u);
}

TEST(AllReduce, PerTensorCallsAndHalfStorageCountBytes) {
  std::vector<GradBuffer> ranks = rankBuffers(2, DType::F16);
  ProcessGroup pg(2);
  std::vector<GradBuffer *> ptrs = pointers(ranks);
  pg.allReduceTensor(ptrs, 1, ReduceOp::Sum);
  EXPECT_EQ(pg.calls(), 1u);
  EXPECT_EQ(pg.bytes(), 3u * 2u); // 3 fp16 elements
  EXPECT_EQ(ranks[0].tensor(1)[0], 1.0f);
  EXPECT_EQ(ranks[1].tensor(1)[1], 20.0f);
  EXPECT_EQ(ranks[0].tensor(0)[0], 1.0f); // tensor 0 untouched
  EXPECT_EQ(ranks[1].tensor(0)[0], 2.0f);
  pg.allReduceTensor(ptrs, 0, ReduceOp::Sum);
  EXPECT_EQ(pg.calls(), 2u);
  EXPECT_EQ(pg.bytes(), 3u * 2u + 4u * 2u);
  pg.resetCounters();
  EXPECT_EQ(pg.calls(), 0u);
  EXPECT_EQ(pg.bytes(), 0u);
}

TEST(AllReduce, PerMicroBatchAvgSyncMatchesButCostsNTimes) {
  // accum-unguarded-grad-sync with AVG: same values, N x calls and bytes.
  const int W = 2, N = 3;
  const Model model = Model::linear(3, 2, 1);
  std::vector<GradBuffer> every(W, GradBuffer(model)), once(W, GradBuffer(model));
  ProcessGroup pgEvery(W), pgOnce(W);
  std::vector<GradBuffer *> pe = pointers(every), po = pointers(once);
  for (int i = 0; i < N; ++i) {
    for (int r = 0; r < W; ++r) {
      const Batch b = makeBatch(2, static_cast<uint64_t>(i * W + r), 4, 3, 2, TaskKind::Regression);
      forwardBackward(model, b, LossKind::Mse, Reduction::Mean, 1.0f / N, every[r]);
      forwardBackward(model, b, LossKind::Mse, Reduction::Mean, 1.0f / N, once[r]);
    }
    pgEvery.allReduce(pe, ReduceOp::Avg);
  }
  pgOnce.allReduce(po, ReduceOp::Avg);
  EXPECT_LT(gradlint::runtime::test::relativeError(every[0].flatten(), once[0].flatten()), 1e-6);
  EXPECT_EQ(pgEvery.calls(), static_cast<uint64_t>(N) * pgOnce.calls());
  EXPECT_EQ(pgEvery.bytes(), static_cast<uint64_t>(N) * pgOnce.bytes());
  EXPECT_EQ(pgOnce.bytes(), static_cast<uint64_t>(model.numel()) * 4u);
}

TEST(AllReduce, RejectsMismatchedRanks) {
  std::vector<GradBuffer> ranks = rankBuffers(2);
  ProcessGroup pg(3);
  std::vector<GradBuffer *> ptrs = pointers(ranks);
  EXPECT_THROW(pg.allReduce(ptrs, ReduceOp::Sum), std::invalid_argument);
  ProcessGroup pg2(2);
  GradBuffer odd(std::vector<Shape>{{4}, {3}});
  std::vector<GradBuffer *> mixed = {&ranks[0], &odd};
  EXPECT_THROW(pg2.allReduce(mixed, ReduceOp::Sum), std::invalid_argument);
  GradBuffer half(std::vector<Shape>{{2, 2}, {3}}, DType::F16);
  std::vector<GradBuffer *> mixedType = {&ranks[0], &half};
  EXPECT_THROW(pg2.allReduce(mixedType, ReduceOp::Sum), std::invalid_argument);
  EXPECT_THROW(ProcessGroup(0), std::invalid_argument);
  EXPECT_EQ(pg2.calls(), 0u);
}

} // namespace
