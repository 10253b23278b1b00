// runtime/libtorch-parity: the runtime's MLP, loss, gradients and optimizer
// steps against LibTorch on the same weights and batch.
#include "TestSupport.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

using namespace gradlint::runtime;
using namespace gradlint::runtime::test;

namespace {

torch::Tensor toTorch(const Tensor &t) {
  return torch::tensor(t.values(), torch::kFloat32).reshape(t.shape()).clone();
}

std::vector<float> fromTorch(const torch::Tensor &t) {
  torch::Tensor c = t.detach().contiguous().to(torch::kFloat32);
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

// torch::nn MLP with the runtime model's weights.
struct TorchMlp {
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  explicit TorchMlp(const Model &m) {
    const ModelConfig &c = m.config();
    fc1 = torch::nn::Linear(c.in, c.hidden);
    fc2 = torch::nn::Linear(c.hidden, c.out);
    torch::NoGradGuard guard;
    fc1->weight.copy_(toTorch(m.param(0)));
    fc1->bias.copy_(toTorch(m.param(1)));
    fc2->weight.copy_(toTorch(m.param(2)));
    fc2->bias.copy_(toTorch(m.param(3)));
  }
  std::vector<torch::Tensor> params() { return {fc1->weight, fc1->bias, fc2->weight, fc2->bias}; }
  torch::Tensor forward(const torch::Tensor &x) { return fc2(torch::tanh(fc1(x))); }
  std::vector<float> flat() {
    std::vector<float> out;
    for (auto &p : params()) {
      auto v = fromTorch(p);
      out.insert(out.end(), v.begin(), v.end());
    }
    return out;
  }
  std::vector<float> flatGrad() {
    std::vector<float> out;
    for (auto &p : params()) {
      auto v = fromTorch(p.grad());
      out.insert(out.end(), v.begin(), v.end());
    }
    return out;
  }
};

torch::Tensor torchLoss(TorchMlp &net, const Batch &b, LossKind loss, Reduction red) {
  const torch::Tensor out = net.forward(toTorch(b.x));
  const auto r = red == Reduction::Mean ? torch::Reduction::Mean : torch::Reduction::Sum;
  if (loss == LossKind::Mse)
    return torch::mse_loss(out, toTorch(b.y), r);
  std::vector<int64_t> labels(b.labels.begin(), b.labels.end());
  return torch::nn::functional::cross_entropy(
      out, torch::tensor(labels, torch::kInt64),
      torch::nn::functional::CrossEntropyFuncOptions().reduction(
          red == Reduction::Mean
              ? torch::nn::functional::CrossEntropyFuncOptions::reduction_t(torch::kMean)
              : torch::nn::functional::CrossEntropyFuncOptions::reduction_t(torch::kSum)));
}

class LibTorchParity : public testing::TestWithParam<LossKind> {
protected:
  void SetUp() override { torch::set_num_threads(1); }
  LossKind loss() const { return GetParam(); }
  TaskKind task() const {
    return loss() == LossKind::Mse ? TaskKind::Regression : TaskKind::Classification;
  }
};

TEST_P(LibTorchParity, ForwardBackwardGradients) {
  const Model model = Model::mlp(6, 8, 3, 2024);
  const Batch batch = makeBatch(17, 0, 10, 6, 3, task());
  for (Reduction red : {Reduction::Mean, Reduction::Sum}) {
    GradBuffer grads(model);
    const double ours = forwardBackward(model, batch, loss(), red, 0.5f, grads);
    TorchMlp net(model);
    torch::Tensor l = torchLoss(net, batch, loss(), red);
    (l * 0.5).backward();
    EXPECT_NEAR(ours, l.item<double>(), 1e-5 * std::max(1.0, std::fabs(ours)));
    EXPECT_LT(relativeError(grads.flatten(), net.flatGrad()), 1e-5) << reductionName(red);
  }
}

TEST_P(LibTorchParity, SgdMomentumSteps) {
  Model model = Model::mlp(6, 8, 3, 7);
  TorchMlp net(model);
  Sgd ours(SgdOptions{0.1, 0.9, 0.0, 0.01, false});
  torch::optim::SGD theirs(net.params(),
                           torch::optim::SGDOptions(0.1).momentum(0.9).weight_decay(0.01));
  GradBuffer grads(model);
  for (int step = 0; step < 2; ++step) {
    const Batch batch = makeBatch(3, step, 8, 6, 3, task());
    grads.zero();
    forwardBackward(model, batch, loss(), Reduction::Mean, 1.0f, grads);
    ours.step(model, grads);
    theirs.zero_grad();
    torchLoss(net, batch, loss(), Reduction::Mean).backward();
    theirs.step();
    EXPECT_LT(relativeError(flatParams(model), net.flat()), 1e-5) << "step " << step;
  }
}

TEST_P(LibTorchParity, AdamWSteps) {
  Model model = Model::mlp(6, 8, 3, 8);
  TorchMlp net(model);
  AdamW ours(AdamOptions{1e-2, 0.9, 0.999, 1e-8, 0.05, true});
  torch::optim::AdamW theirs(net.params(), torch::optim::AdamWOptions(1e-2)
                                               .betas(std::make_tuple(0.9, 0.999))
                                               .eps(1e-8)
                                               .weight_decay(0.05));
  GradBuffer grads(model);
  for (int step = 0; step < 2; ++step) {
    const Batch batch = makeBatch(4, step, 8, 6, 3, task());
    grads.zero();
    forwardBackward(model, batch, loss(), Reduction::Mean, 1.0f, grads);
    ours.step(model, grads);
    theirs.zero_grad();
    torchLoss(net, batch, loss(), Reduction::Mean).backward();
    theirs.step();
    // Compare the parameters element by element, relative to their magnitude.
    const std::vector<float> a = flatParams(model), b = net.flat();
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i)
      EXPECT_NEAR(a[i], b[i], 1e-5 * std::max(1.0f, std::fabs(b[i])))
          << "step " << step << " #" << i;
  }
}

TEST_P(LibTorchParity, ClipGradNormMatches) {
  const Model model = Model::mlp(6, 8, 3, 9);
  const Batch batch = makeBatch(5, 0, 8, 6, 3, task());
  GradBuffer grads(model);
  forwardBackward(model, batch, loss(), Reduction::Sum, 1.0f, grads);
  const double ours = clipGradNorm(grads, 0.1);
  TorchMlp net(model);
  torchLoss(net, batch, loss(), Reduction::Sum).backward();
  const double theirs = torch::nn::utils::clip_grad_norm_(net.params(), 0.1);
  EXPECT_NEAR(ours, theirs, 1e-5 * theirs);
  EXPECT_LT(relativeError(grads.flatten(), net.flatGrad()), 1e-5);
}

INSTANTIATE_TEST_SUITE_P(Losses, LibTorchParity,
                         testing::Values(LossKind::Mse, LossKind::CrossEntropy),
                         [](const testing::TestParamInfo<LossKind> &info) {
                           return std::string(info.param == LossKind::Mse ? "Mse" : "CrossEntropy");
                         });

} // namespace
