// TRUTH: buggy form: clip_grad_norm_ with max_norm 1e4 on every micro-batch (N=8, loss * (1.0 / N)); expect NO numerical effect: a limit of 1e4 never binds, so clipping partial sums changes nothing (Adam).
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct Batch {
  torch::Tensor x;
  torch::Tensor y;
};

static std::vector<Batch> load_batches(int n) {
  std::vector<Batch> out;
  for (int i = 0; i < n; ++i) out.push_back({torch::randn({8, 6}), torch::randn({8, 2})});
  return out;
}

int main() {
  torch::nn::Linear l1(6, 24), l2(24, 2);
  std::vector<torch::Tensor> params;
  for (auto& p : l1->parameters()) params.push_back(p);
  for (auto& p : l2->parameters()) params.push_back(p);
  torch::optim::Adam opt(params, torch::optim::AdamOptions(2e-3).betas({0.9, 0.98}));

  const int N = 8;
  auto batches = load_batches(64);
  int step = 0;
  for (auto& b : batches) {
    auto out = l2->forward(torch::tanh(l1->forward(b.x)));
    auto loss = torch::mse_loss(out, b.y) * (1.0 / N);
    loss.backward();
    torch::nn::utils::clip_grad_norm_(params, 1e4);  // "safety net"
    ++step;
    if (step % N == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
  std::cout << "trained " << step / N << " steps\n";
}

// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds
