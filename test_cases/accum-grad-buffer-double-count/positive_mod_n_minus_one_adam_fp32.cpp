// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: gradients weighted 3, 2, 1
// `i % N == N - 1` boundary with Adam; fp32 master accumulators receive `p.grad().to(kFloat32)`
// through add_() every micro-batch while backward() keeps summing into the same .grad.
#include <torch/torch.h>

void train_regressor(torch::nn::Sequential model, const std::vector<torch::Tensor> &batches,
                     const std::vector<torch::Tensor> &labels) {
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3));
  constexpr int kAccum = 3;
  auto weights = model->parameters();
  std::vector<torch::Tensor> master;
  master.reserve(weights.size());
  for (auto &w : weights) {
    master.push_back(torch::zeros_like(w, torch::kFloat32));
  }
  for (int i = 0; i < static_cast<int>(batches.size()); ++i) {
    auto out = model->forward(batches[i]);
    auto loss = torch::l1_loss(out, labels[i]) / kAccum;
    loss.backward();
    {
      torch::NoGradGuard no_grad;
      for (size_t j = 0; j < weights.size(); ++j) {
        master[j].add_(weights[j].grad().to(torch::kFloat32));
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
        // CHECK-FIXES: {{^}}        master[j].add_(weights[j].grad().to(torch::kFloat32));{{$}}
        // CHECK-FIXES-NEXT: {{^}}        weights[j].grad().zero_();{{$}}
      }
    }
    if (i % kAccum == kAccum - 1) {
      for (size_t j = 0; j < weights.size(); ++j) {
        weights[j].grad().copy_(master[j]);
        master[j].zero_();
      }
      adam.step();
      adam.zero_grad();
    }
  }
}
