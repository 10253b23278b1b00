// SGD with momentum and AdamW against values computed by hand from the
// PyTorch update formulas (in double, in the test itself).
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace gradlint::runtime;

namespace {

// A 2 -> 1 Linear with W = [0.5, -0.25], b = 0.1.
Model tinyModel() {
  Model m = Model::linear(2, 1, 0);
  m.param(0)[0] = 0.5f;
  m.param(0)[1] = -0.25f;
  m.param(1)[0] = 0.1f;
  return m;
}

GradBuffer grads(const Model &m, float gw0, float gw1, float gb) {
  GradBuffer g(m);
  g.set(0, Tensor(Shape{1, 2}, {gw0, gw1}));
  g.set(1, Tensor(Shape{1}, {gb}));
  return g;
}

void expectParams(const Model &m, double w0, double w1, double b, double tol) {
  EXPECT_NEAR(m.param(0)[0], w0, tol);
  EXPECT_NEAR(m.param(0)[1], w1, tol);
  EXPECT_NEAR(m.param(1)[0], b, tol);
}

TEST(Optimizers, SgdMomentumTwoStepsByHand) {
  // lr 0.1, momentum 0.9, weight decay 0.01; grads g1 = (0.2, -0.4, 0.1),
  // g2 = (0.1, 0.3, 0.0).
  // step 1: d = g + 0.01 p; buf = d; p -= 0.1 buf
  //   W0: d = 0.205      -> p = 0.4795
  //   W1: d = -0.4025    -> p = -0.20975
  //   b:  d = 0.101      -> p = 0.0899
  // step 2: d = g + 0.01 p; buf = 0.9 buf + d; p -= 0.1 buf
  //   W0: d = 0.104795,  buf = 0.289295   -> p = 0.4505705
  //   W1: d = 0.2979025, buf = -0.0643475 -> p = -0.20331525
  //   b:  d = 0.000899,  buf = 0.091799   -> p = 0.0807201
  Model m = tinyModel();
  Sgd sgd(SgdOptions{0.1, 0.9, 0.0, 0.01, false});
  sgd.step(m, grads(m, 0.2f, -0.4f, 0.1f));
  expectParams(m, 0.4795, -0.20975, 0.0899, 1e-7);
  EXPECT_NEAR(sgd.momentumBuffer(0)[0], 0.205, 1e-7);
  sgd.step(m, grads(m, 0.1f, 0.3f, 0.0f));
  expectParams(m, 0.4505705, -0.20331525, 0.0807201, 1e-7);
  EXPECT_NEAR(sgd.momentumBuffer(0)[1], -0.0643475, 1e-7);
  EXPECT_EQ(sgd.stepCount(), 2);
}

TEST(Optimizers, SgdPlainNesterovAndDampening) {
  Model m = tinyModel();
  Sgd plain(0.5); // p -= 0.5 g
  plain.step(m, grads(m, 0.2f, -0.4f, 0.1f));
  expectParams(m, 0.4, -0.05, 0.05, 1e-7);

  // Nesterov, momentum 0.5, dampening 0 (PyTorch: d = d + momentum * buf).
  // step 1: buf = g, d = g + 0.5 g = 1.5 g;   p -= 0.1 * 1.5 g
  Model n = tinyModel();
  Sgd nesterov(SgdOptions{0.1, 0.5, 0.0, 0.0, true});
  nesterov.step(n, grads(n, 0.2f, -0.4f, 0.1f));
  expectParams(n, 0.5 - 0.03, -0.25 + 0.06, 0.1 - 0.015, 1e-7);
  // step 2 with g = (0.1, 0.1, 0.1): buf = 0.5 buf + g; d = g + 0.5 buf
  //   W0: buf = 0.2, d = 0.2 -> p = 0.47 - 0.02 = 0.45
  nesterov.step(n, grads(n, 0.1f, 0.1f, 0.1f));
  EXPECT_NEAR(n.param(0)[0], 0.45, 1e-7);

  // Dampening 0.5: first step buf = g (no dampening), then buf = m buf + 0.5 g.
  Model d = tinyModel();
  Sgd damp(SgdOptions{1.0, 1.0, 0.5, 0.0, false});
  damp.step(d, grads(d, 0.2f, 0.0f, 0.0f)); // buf 0.2, p = 0.3
  damp.step(d, grads(d, 0.2f, 0.0f, 0.0f)); // buf 0.2 + 0.1 = 0.3, p = 0.0
  EXPECT_NEAR(d.param(0)[0], 0.0, 1e-7);
}

// One AdamW parameter in double from the formulas (independent of the code
// under test): p *= 1 - lr wd; m = b1 m + (1-b1) g; v = b2 v + (1-b2) g^2;
// p -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps).
struct HandAdam {
  double p, m = 0, v = 0;
  void step(double g, int t, double lr, double b1, double b2, double eps, double wd,
            bool decoupled) {
    if (decoupled)
      p *= 1 - lr * wd;
    else
      g += wd * p;
    m = b1 * m + (1 - b1) * g;
    v = b2 * v + (1 - b2) * g * g;
    p -= lr / (1 - std::pow(b1, t)) * m / (std::sqrt(v) / std::sqrt(1 - std::pow(b2, t)) + eps);
  }
};

TEST(Optimizers, AdamWTwoStepsByHand) {
  // lr 0.1, betas (0.9, 0.999), eps 1e-8, weight decay 0.1.
  // step 1: p *= 0.99; m_hat = g, v_hat = g^2, so p -= 0.1 * g / (|g| + 1e-8):
  //   W0: 0.495 - 0.0999999950 = 0.3950000050
  //   W1: -0.2475 + 0.0999999975 = -0.1475000025
  //   b:  0.099 - 0.0999999900 = -0.0009999900
  // step 2 (g = 0.1, 0.3, 0.0), from the formulas:
  //   W0 = 0.2978320470, W1 = -0.1370925020, b = -0.0679958060
  Model m = tinyModel();
  AdamW adamw(0.1, 0.9, 0.999, 1e-8, 0.1);
  adamw.step(m, grads(m, 0.2f, -0.4f, 0.1f));
  expectParams(m, 0.3950000050, -0.1475000025, -0.0009999900, 2e-7);
  EXPECT_NEAR(adamw.expAvg(0)[0], 0.02, 1e-8);
  EXPECT_NEAR(adamw.expAvgSq(0)[1], 0.001 * 0.16, 1e-10);
  adamw.step(m, grads(m, 0.1f, 0.3f, 0.0f));
  expectParams(m, 0.2978320470, -0.1370925020, -0.0679958060, 2e-7);

  // The same two steps from the formulas in double.
  HandAdam w0{0.5}, w1{-0.25}, b{0.1};
  const double g1[3] = {0.2, -0.4, 0.1}, g2[3] = {0.1, 0.3, 0.0};
  HandAdam *all[3] = {&w0, &w1, &b};
  for (int i = 0; i < 3; ++i) {
    all[i]->step(g1[i], 1, 0.1, 0.9, 0.999, 1e-8, 0.1, true);
    all[i]->step(g2[i], 2, 0.1, 0.9, 0.999, 1e-8, 0.1, true);
  }
  expectParams(m, w0.p, w1.p, b.p, 2e-7);
}

TEST(Optimizers, AdamCoupledWeightDecay) {
  Model m = tinyModel();
  AdamW adam(adamOptions(0.01, 0.9, 0.999, 1e-8, 0.5));
  HandAdam w0{0.5}, w1{-0.25}, b{0.1};
  const double g[2][3] = {{0.2, -0.4, 0.1}, {-0.3, 0.05, 0.2}};
  for (int t = 1; t <= 2; ++t) {
    adam.step(m, grads(m, static_cast<float>(g[t - 1][0]), static_cast<float>(g[t - 1][1]),
                       static_cast<float>(g[t - 1][2])));
    w0.step(g[t - 1][0], t, 0.01, 0.9, 0.999, 1e-8, 0.5, false);
    w1.step(g[t - 1][1], t, 0.01, 0.9, 0.999, 1e-8, 0.5, false);
    b.step(g[t - 1][2], t, 0.01, 0.9, 0.999, 1e-8, 0.5, false);
  }
  expectParams(m, w0.p, w1.p, b.p, 1e-7);
}

TEST(Optimizers, EpsIsOutsideTheSquareRoot) {
  // A zero gradient with zero state: m = v = 0 -> update 0 / (0 + eps) = 0;
  // with g tiny (1e-10) the update is lr * g / (|g| + eps) = 0.1 * 1e-10 / 1.01e-8.
  Model m = tinyModel();
  AdamW adamw(0.1, 0.9, 0.999, 1e-8, 0.0);
  adamw.step(m, grads(m, 1e-10f, 0.0f, 0.0f));
  EXPECT_NEAR(m.param(0)[0], 0.5 - 0.1 * 1e-10 / (1e-10 + 1e-8), 1e-7);
  EXPECT_EQ(m.param(0)[1], -0.25f);
}

TEST(Optimizers, RejectModelChangesAndResetState) {
  Model m = tinyModel();
  Sgd sgd(0.1, 0.9);
  sgd.step(m, grads(m, 0.1f, 0.1f, 0.1f));
  Model other = Model::linear(3, 1, 0);
  GradBuffer og(other);
  EXPECT_THROW(sgd.step(other, og), std::invalid_argument);
  EXPECT_THROW(sgd.step(m, og), std::invalid_argument);
  sgd.reset();
  EXPECT_EQ(sgd.stepCount(), 0);
  EXPECT_NO_THROW(sgd.step(other, og));
}

} // namespace
