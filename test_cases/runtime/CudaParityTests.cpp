// The CUDA backend against the CPU backend, kernel by kernel and end to end.
// Skips when the build has no CUDA backend or cudaGetDeviceCount reports no
// device.
#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace gradlint::runtime;
using namespace gradlint::runtime::test;

namespace {

class CudaParity : public testing::Test {
protected:
  void SetUp() override {
    if (!cudaBackendBuilt())
      GTEST_SKIP() << "built without the CUDA backend";
    if (!cudaAvailable())
      GTEST_SKIP() << "no CUDA device (cudaGetDeviceCount reports 0)";
    gpu = cudaBackend();
  }
  const Backend &cpu = cpuBackend();
  const Backend *gpu = nullptr;
};

std::vector<float> randomVector(uint64_t seed, size_t n, float lo = -2.0f, float hi = 2.0f) {
  SplitMix64 g(seed);
  std::vector<float> v(n);
  for (float &x : v)
    x = g.uniform(lo, hi);
  return v;
}

TEST_F(CudaParity, DenseKernels) {
  const int B = 33, in = 17, out = 9;
  const auto x = randomVector(1, B * in), W = randomVector(2, out * in), b = randomVector(3, out);
  const auto dy = randomVector(4, B * out);
  std::vector<float> yc(B * out), yg(B * out);
  cpu.linearForward(x.data(), W.data(), b.data(), yc.data(), B, in, out);
  gpu->linearForward(x.data(), W.data(), b.data(), yg.data(), B, in, out);
  EXPECT_LT(relativeError(yg, yc), 1e-6);
  std::vector<float> dWc(out * in), dbc(out), dxc(B * in), dWg(out * in), dbg(out), dxg(B * in);
  cpu.linearBackward(x.data(), W.data(), dy.data(), dWc.data(), dbc.data(), dxc.data(), B, in, out);
  gpu->linearBackward(x.data(), W.data(), dy.data(), dWg.data(), dbg.data(), dxg.data(), B, in,
                      out);
  EXPECT_LT(relativeError(dWg, dWc), 1e-6);
  EXPECT_LT(relativeError(dbg, dbc), 1e-6);
  EXPECT_LT(relativeError(dxg, dxc), 1e-6);
}

TEST_F(CudaParity, ElementwiseAndReductions) {
  const int64_t n = 1000;
  const auto x = randomVector(5, n), y = randomVector(6, n);
  for (Activation a : {Activation::Tanh, Activation::Relu}) {
    std::vector<float> fc(n), fg(n), bc(n), bg(n);
    cpu.activationForward(a, x.data(), fc.data(), n);
    gpu->activationForward(a, x.data(), fg.data(), n);
    EXPECT_LT(relativeError(fg, fc), 1e-6);
    cpu.activationBackward(a, x.data(), fc.data(), y.data(), bc.data(), n);
    gpu->activationBackward(a, x.data(), fc.data(), y.data(), bg.data(), n);
    EXPECT_LT(relativeError(bg, bc), 1e-6);
  }
  for (DType t : {DType::F32, DType::F16, DType::BF16}) {
    std::vector<float> ac = x, ag = x;
    cpu.accumulate(ac.data(), y.data(), n, t);
    gpu->accumulate(ag.data(), y.data(), n, t);
    EXPECT_EQ(ag, ac) << dtypeName(t); // pure IEEE ops: bitwise
    cpu.scale(ac.data(), n, 0.37f, t);
    gpu->scale(ag.data(), n, 0.37f, t);
    EXPECT_EQ(ag, ac) << dtypeName(t);
    cpu.clampAbs(ac.data(), n, 0.5f, t);
    gpu->clampAbs(ag.data(), n, 0.5f, t);
    EXPECT_EQ(ag, ac) << dtypeName(t);
    std::vector<float> rc = x, rg = x;
    cpu.roundTo(rc.data(), n, t);
    gpu->roundTo(rg.data(), n, t);
    EXPECT_EQ(rg, rc) << dtypeName(t);
  }
  std::vector<float> pc = x, pg = x;
  cpu.axpy(pc.data(), y.data(), n, -0.5f);
  gpu->axpy(pg.data(), y.data(), n, -0.5f);
  EXPECT_EQ(pg, pc);
  cpu.fill(pc.data(), n, 3.0f);
  gpu->fill(pg.data(), n, 3.0f);
  EXPECT_EQ(pg, pc);
  EXPECT_NEAR(gpu->sumSquares(x.data(), n), cpu.sumSquares(x.data(), n),
              1e-12 * cpu.sumSquares(x.data(), n));
  EXPECT_EQ(gpu->maxAbs(x.data(), n), cpu.maxAbs(x.data(), n));
  // Device reductions are deterministic.
  EXPECT_EQ(gpu->sumSquares(x.data(), n), gpu->sumSquares(x.data(), n));
}

TEST_F(CudaParity, LossesAndOptimizers) {
  const int B = 12, C = 5;
  const auto z = randomVector(7, B * C), t = randomVector(8, B * C);
  std::vector<int32_t> labels(B);
  for (int i = 0; i < B; ++i)
    labels[i] = i % C;
  std::vector<float> gc(B * C), gg(B * C);
  EXPECT_NEAR(gpu->mseLoss(z.data(), t.data(), gg.data(), B * C, 0.1f),
              cpu.mseLoss(z.data(), t.data(), gc.data(), B * C, 0.1f), 1e-9);
  EXPECT_EQ(gg, gc);
  EXPECT_NEAR(gpu->crossEntropyLoss(z.data(), labels.data(), gg.data(), B, C, 0.5f),
              cpu.crossEntropyLoss(z.data(), labels.data(), gc.data(), B, C, 0.5f), 1e-9);
  EXPECT_LT(relativeError(gg, gc), 1e-6);

  const int64_t n = 300;
  const auto p0 = randomVector(9, n), g = randomVector(10, n);
  std::vector<float> pc = p0, pg = p0, bc(n), bg(n);
  kernels::SgdScalars s;
  s.lr = 0.1f;
  s.momentum = 0.9f;
  s.weightDecay = 0.01f;
  for (int step = 0; step < 2; ++step) {
    s.firstStep = step == 0;
    cpu.sgdStep(pc.data(), g.data(), bc.data(), n, s);
    gpu->sgdStep(pg.data(), g.data(), bg.data(), n, s);
  }
  EXPECT_EQ(pg, pc);
  std::vector<float> mc(n), mg(n), vc(n), vg(n);
  for (int step = 1; step <= 2; ++step) {
    const auto a = kernels::makeAdamScalars(1e-2, 0.9, 0.999, 1e-8, 0.01, true, step);
    cpu.adamStep(pc.data(), g.data(), mc.data(), vc.data(), n, a);
    gpu->adamStep(pg.data(), g.data(), mg.data(), vg.data(), n, a);
  }
  EXPECT_LT(relativeError(pg, pc), 1e-6);
}

TEST_F(CudaParity, EndToEndTrainingStep) {
  Model mc = Model::mlp(6, 10, 4, 3), mg = mc;
  GradBuffer gc(mc), gg(mg);
  AdamW oc(AdamOptions{}, cpu), og(AdamOptions{}, *gpu);
  for (int i = 0; i < 4; ++i) {
    const Batch b = makeBatch(4, i, 8, 6, 4, TaskKind::Classification);
    const double lc =
        forwardBackward(mc, b, LossKind::CrossEntropy, Reduction::Mean, 0.25f, gc, cpu);
    const double lg =
        forwardBackward(mg, b, LossKind::CrossEntropy, Reduction::Mean, 0.25f, gg, *gpu);
    EXPECT_NEAR(lg, lc, 1e-6 * std::max(1.0, lc));
  }
  EXPECT_LT(relativeError(gg.flatten(), gc.flatten()), 1e-5);
  EXPECT_NEAR(clipGradNorm(gg, 0.1, *gpu), clipGradNorm(gc, 0.1, cpu), 1e-6);
  oc.step(mc, gc);
  og.step(mg, gg);
  EXPECT_LT(relativeError(flatParams(mg), flatParams(mc)), 1e-5);
}

} // namespace
