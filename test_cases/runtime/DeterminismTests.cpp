// Determinism, the PRNG, data generation, tensors, models and backends.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace gradlint::runtime;
using namespace gradlint::runtime::test;

namespace {

TEST(Determinism, SplitMix64ReferenceOutputs) {
  // The published splitmix64 sequence for seed 0.
  SplitMix64 g(0);
  EXPECT_EQ(g.next(), 0xe220a8397b1dcdafull);
  EXPECT_EQ(g.next(), 0x6e789e6aa1b965f4ull);
  EXPECT_EQ(g.next(), 0x06c45d188009454full);
  SplitMix64 u(0);
  EXPECT_EQ(u.uniform01(), static_cast<float>(0xe220a8u) / 16777216.0f);
}

TEST(Determinism, ModelInitFollowsTheDocumentedDraws) {
  // Linear(2 -> 1), seed 0: weight[0], weight[1], bias[0] are the first three
  // draws, uniform in [-1/sqrt(2), 1/sqrt(2)).
  const Model m = Model::linear(2, 1, 0);
  const float bound = static_cast<float>(1.0 / std::sqrt(2.0));
  const uint64_t draws[3] = {0xe220a8397b1dcdafull, 0x6e789e6aa1b965f4ull, 0x06c45d188009454full};
  // One operation per statement: Clang would otherwise fold the constant
  // expression as a fused multiply-add (-ffp-contract=on), one bit off the
  // runtime's separate multiply and add.
  float expect[3];
  for (int i = 0; i < 3; ++i) {
    const float scaled = (2 * bound) * (static_cast<float>(draws[i] >> 40) / 16777216.0f);
    expect[i] = -bound + scaled;
  }
  EXPECT_EQ(m.param(0)[0], expect[0]);
  EXPECT_EQ(m.param(0)[1], expect[1]);
  EXPECT_EQ(m.param(1)[0], expect[2]);
}

// A full accumulation run: MLP, CE, fp16 grads, clip, all-reduce, AdamW.
std::pair<Model, GradBuffer> fullRun() {
  Model model = Model::mlp(5, 7, 3, 1234);
  GradBuffer g0(model, DType::F16), g1(model, DType::F16);
  AdamW opt(AdamOptions{});
  ProcessGroup pg(2);
  std::vector<GradBuffer *> ranks = {&g0, &g1};
  for (int step = 0; step < 3; ++step) {
    g0.zero();
    g1.zero();
    for (int i = 0; i < 4; ++i) {
      forwardBackward(model, makeBatch(99, step * 8 + 2 * i, 6, 5, 3, TaskKind::Classification),
                      LossKind::CrossEntropy, Reduction::Mean, 0.25f, g0);
      forwardBackward(model, makeBatch(99, step * 8 + 2 * i + 1, 6, 5, 3, TaskKind::Classification),
                      LossKind::CrossEntropy, Reduction::Mean, 0.25f, g1);
    }
    pg.allReduce(ranks, ReduceOp::Avg);
    clipGradNorm(g0, 0.5);
    opt.step(model, g0);
  }
  return {model, g0};
}

TEST(Determinism, SameSeedsGiveBitIdenticalRuns) {
  const auto a = fullRun();
  const auto b = fullRun();
  EXPECT_TRUE(a.first.bitwiseEqual(b.first));
  EXPECT_TRUE(a.second.bitwiseEqual(b.second));
  EXPECT_FALSE(a.first.bitwiseEqual(Model::mlp(5, 7, 3, 1234))); // it did train
}

TEST(Determinism, DifferentSeedsDiffer) {
  EXPECT_FALSE(Model::mlp(3, 4, 2, 1).bitwiseEqual(Model::mlp(3, 4, 2, 2)));
  const Batch a = makeBatch(1, 0, 4, 3, 2, TaskKind::Regression);
  EXPECT_FALSE(a.x.bitwiseEqual(makeBatch(2, 0, 4, 3, 2, TaskKind::Regression).x));
  EXPECT_FALSE(a.x.bitwiseEqual(makeBatch(1, 1, 4, 3, 2, TaskKind::Regression).x));
  EXPECT_TRUE(a.x.bitwiseEqual(makeBatch(1, 0, 4, 3, 2, TaskKind::Regression).x));
}

TEST(Batches, ShapesRangesAndLabels) {
  const Batch r = makeBatch(5, 3, 8, 4, 3, TaskKind::Regression);
  EXPECT_EQ(r.x.shape(), (Shape{8, 4}));
  EXPECT_EQ(r.y.shape(), (Shape{8, 3}));
  EXPECT_TRUE(r.labels.empty());
  EXPECT_EQ(r.size(), 8);
  EXPECT_EQ(r.outFeatures(), 3);
  for (float v : r.x.values()) {
    EXPECT_GE(v, -1.0f);
    EXPECT_LT(v, 1.0f);
  }
  const Batch c = makeBatch(5, 3, 64, 4, 3, TaskKind::Classification);
  EXPECT_EQ(c.labels.size(), 64u);
  EXPECT_EQ(c.numClasses, 3);
  std::vector<int> seen(3, 0);
  for (int32_t l : c.labels) {
    ASSERT_GE(l, 0);
    ASSERT_LT(l, 3);
    ++seen[static_cast<size_t>(l)];
  }
  for (int s : seen)
    EXPECT_GT(s, 0); // every class occurs
  EXPECT_THROW(makeBatch(5, 0, 4, 3, 1, TaskKind::Classification), std::invalid_argument);
  EXPECT_THROW(makeBatch(5, 0, 0, 3, 2, TaskKind::Regression), std::invalid_argument);
}

TEST(Batches, RowsDependOnSeedIndexAndRowOnly) {
  const Batch small = makeBatch(5, 2, 3, 4, 2, TaskKind::Classification);
  const Batch big = makeBatch(5, 2, 6, 4, 2, TaskKind::Classification);
  const Batch head = big.slice(0, 3);
  EXPECT_TRUE(head.x.bitwiseEqual(small.x));
  EXPECT_EQ(head.labels, small.labels);
  const Batch both = Batch::concat({small, big.slice(3, 6)});
  EXPECT_TRUE(both.x.bitwiseEqual(big.x));
  EXPECT_EQ(both.labels, big.labels);
  EXPECT_THROW(Batch::concat({small, makeBatch(5, 0, 3, 4, 2, TaskKind::Regression)}),
               std::invalid_argument);
}

TEST(Tensors, Basics) {
  Tensor t(Shape{2, 3}, 1.5f);
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.rank(), 2);
  t.at(1, 2) = 4.0f;
  EXPECT_EQ(t[5], 4.0f);
  EXPECT_EQ(t.rows(1, 2).values(), (std::vector<float>{1.5f, 1.5f, 4.0f}));
  EXPECT_THROW(Tensor(Shape{2, 2}, std::vector<float>{1.0f}), std::invalid_argument);
  EXPECT_THROW(t.rows(1, 3), std::invalid_argument);
  EXPECT_EQ(shapeString(t.shape()), "[2, 3]");
  EXPECT_EQ(shapeNumel(Shape{}), 1);
}

TEST(Models, LayoutMatchesTorchLinear) {
  const Model lin = Model::linear(4, 3, 1);
  ASSERT_EQ(lin.numParams(), 2u);
  EXPECT_EQ(lin.paramName(0), "weight");
  EXPECT_EQ(lin.param(0).shape(), (Shape{3, 4}));
  EXPECT_EQ(lin.param(1).shape(), (Shape{3}));
  const Model mlp = Model::mlp(4, 5, 2, 1);
  ASSERT_EQ(mlp.numParams(), 4u);
  EXPECT_EQ(mlp.paramName(2), "fc2.weight");
  EXPECT_EQ(mlp.param(0).shape(), (Shape{5, 4}));
  EXPECT_EQ(mlp.param(2).shape(), (Shape{2, 5}));
  EXPECT_EQ(mlp.numel(), 5 * 4 + 5 + 2 * 5 + 2);
  const float bound = 1.0f / std::sqrt(4.0f);
  for (float v : mlp.param(0).values())
    EXPECT_LE(std::fabs(v), bound);
  EXPECT_THROW(Model::mlp(4, 0, 2, 1), std::invalid_argument);
  // forward() agrees with the double reference.
  const Batch b = makeBatch(3, 0, 5, 4, 2, TaskKind::Regression);
  const Tensor y = mlp.forward(b.x);
  EXPECT_EQ(y.shape(), (Shape{5, 2}));
  EXPECT_NEAR(computeLoss(mlp, b, LossKind::Mse, Reduction::Sum),
              refLoss(mlp.config(), toDouble(mlp), b, LossKind::Mse, Reduction::Sum), 1e-5);
}

TEST(Backends, SelectionAndNames) {
  EXPECT_STREQ(cpuBackend().name(), "cpu");
  EXPECT_EQ(&selectBackend(BackendKind::Cpu), &cpuBackend());
  const Backend &autoB = selectBackend(BackendKind::Auto);
  if (cudaAvailable()) {
    EXPECT_STREQ(autoB.name(), "cuda");
  } else {
    EXPECT_EQ(&autoB, &cpuBackend());
    EXPECT_EQ(cudaBackend(), nullptr);
    EXPECT_THROW(selectBackend(BackendKind::Cuda), std::runtime_error);
  }
  EXPECT_EQ(parseBackendKind("auto"), BackendKind::Auto);
  EXPECT_STREQ(backendKindName(BackendKind::Cuda), "cuda");
  EXPECT_THROW(parseBackendKind("tpu"), std::invalid_argument);
}

} // namespace
