// Finite-difference gradient checks: the analytic gradient that
// forwardBackward adds (fp32) against double-precision central differences
// of an independent double implementation of the loss.
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

using namespace gradlint::runtime;
using namespace gradlint::runtime::test;

namespace {

struct GradCase {
  Architecture arch;
  LossKind loss;
  Reduction reduction;
};

void PrintTo(const GradCase &c, std::ostream *os) {
  *os << (c.arch == Architecture::Linear ? "Linear" : "Mlp") << "/" << lossKindName(c.loss) << "/"
      << reductionName(c.reduction);
}

std::string caseName(const testing::TestParamInfo<GradCase> &info) {
  const GradCase &c = info.param;
  return std::string(c.arch == Architecture::Linear ? "Linear" : "Mlp") + "_" +
         (c.loss == LossKind::Mse ? "Mse" : "CrossEntropy") + "_" +
         (c.reduction == Reduction::Mean ? "Mean" : "Sum");
}

class GradCheck : public testing::TestWithParam<GradCase> {};

TEST_P(GradCheck, MatchesCentralDifferences) {
  const GradCase &gc = GetParam();
  const int in = 5, hidden = 6, out = 3, batchSize = 7;
  const Model model = gc.arch == Architecture::Linear ? Model::linear(in, out, 11)
                                                      : Model::mlp(in, hidden, out, 11);
  const TaskKind task = gc.loss == LossKind::Mse ? TaskKind::Regression : TaskKind::Classification;
  const Batch batch = makeBatch(3, 0, batchSize, in, out, task);
  const float lossScale = 0.75f;

  GradBuffer grads(model);
  const double loss = forwardBackward(model, batch, gc.loss, gc.reduction, lossScale, grads);

  const DoubleParams base = toDouble(model);
  const double refL = refLoss(model.config(), base, batch, gc.loss, gc.reduction);
  EXPECT_NEAR(loss, refL, 1e-5 * std::max(1.0, std::fabs(refL)));

  const double h = 1e-4;
  for (size_t t = 0; t < model.numParams(); ++t) {
    std::vector<float> fd(base[t].size());
    for (size_t k = 0; k < base[t].size(); ++k) {
      DoubleParams plus = base, minus = base;
      plus[t][k] += h;
      minus[t][k] -= h;
      const double lp = refLoss(model.config(), plus, batch, gc.loss, gc.reduction);
      const double lm = refLoss(model.config(), minus, batch, gc.loss, gc.reduction);
      fd[k] = static_cast<float>(lossScale * (lp - lm) / (2 * h));
    }
    const double err = relativeError(grads.tensor(t).values(), fd);
    EXPECT_LT(err, 1e-3) << model.paramName(t);
    // Every element, not only the norm.
    for (size_t k = 0; k < fd.size(); ++k)
      EXPECT_NEAR(grads.tensor(t)[static_cast<int64_t>(k)], fd[k],
                  1e-4 * std::max(1.0f, std::fabs(fd[k])))
          << model.paramName(t) << "[" << k << "]";
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllModelsAndLosses, GradCheck,
    testing::Values(GradCase{Architecture::Linear, LossKind::Mse, Reduction::Mean},
                    GradCase{Architecture::Linear, LossKind::Mse, Reduction::Sum},
                    GradCase{Architecture::Linear, LossKind::CrossEntropy, Reduction::Mean},
                    GradCase{Architecture::Linear, LossKind::CrossEntropy, Reduction::Sum},
                    GradCase{Architecture::Mlp, LossKind::Mse, Reduction::Mean},
                    GradCase{Architecture::Mlp, LossKind::Mse, Reduction::Sum},
                    GradCase{Architecture::Mlp, LossKind::CrossEntropy, Reduction::Mean},
                    GradCase{Architecture::Mlp, LossKind::CrossEntropy, Reduction::Sum}),
    caseName);

TEST(GradCheckMisc, ComputeLossMatchesForwardBackwardLoss) {
  const Model model = Model::mlp(3, 4, 2, 5);
  const Batch batch = makeBatch(9, 1, 6, 3, 2, TaskKind::Regression);
  GradBuffer grads(model);
  const double a = forwardBackward(model, batch, LossKind::Mse, Reduction::Mean, 1.0f, grads);
  const double b = computeLoss(model, batch, LossKind::Mse, Reduction::Mean);
  EXPECT_EQ(a, b);
  // Mean == Sum / (batch * out) for MSE, Sum / batch for CE.
  EXPECT_NEAR(computeLoss(model, batch, LossKind::Mse, Reduction::Sum), a * 6 * 2, 1e-9);
  const Batch cls = makeBatch(9, 1, 6, 3, 2, TaskKind::Classification);
  EXPECT_NEAR(computeLoss(model, cls, LossKind::CrossEntropy, Reduction::Sum),
              computeLoss(model, cls, LossKind::CrossEntropy, Reduction::Mean) * 6, 1e-9);
}

TEST(GradCheckMisc, RejectsMismatchedInputs) {
  const Model model = Model::linear(3, 2, 1);
  GradBuffer grads(model);
  const Batch wrongWidth = makeBatch(1, 0, 4, 5, 2, TaskKind::Regression);
  EXPECT_THROW(forwardBackward(model, wrongWidth, LossKind::Mse, Reduction::Mean, 1.0f, grads),
               std::invalid_argument);
  const Batch cls = makeBatch(1, 0, 4, 3, 2, TaskKind::Classification);
  EXPECT_THROW(forwardBackward(model, cls, LossKind::Mse, Reduction::Mean, 1.0f, grads),
               std::invalid_argument);
  GradBuffer other(Model::linear(2, 2, 1));
  const Batch reg = makeBatch(1, 0, 4, 3, 2, TaskKind::Regression);
  EXPECT_THROW(forwardBackward(model, reg, LossKind::Mse, Reduction::Mean, 1.0f, other),
               std::invalid_argument);
}

} // namespace
