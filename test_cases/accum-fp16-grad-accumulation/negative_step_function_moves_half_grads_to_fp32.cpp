// RUN: %check_gradlint %s
// The model is float16, but the per-micro-batch function moves each half
// gradient into a float32 buffer right after backward() and clears it: the
// window is summed in float32, and the boundary steps on the buffers.
#include <torch/torch.h>

struct Fp32Window {
  std::vector<torch::Tensor> params, sums;
  explicit Fp32Window(const std::vector<torch::Tensor> &ps) : params(ps) {
    for (const auto &p : ps)
      sums.push_back(torch::zeros_like(p, torch::kFloat));
  }
};

void micro_step(torch::nn::Sequential &net, Fp32Window &window, const torch::Tensor &x, const torch::Tensor &y,
                int n) {
  (torch::mse_loss(net->forward(x), y) / n).backward();
  for (size_t k = 0; k < window.params.size(); ++k) {
    torch::Tensor &half_grad = window.params[k].mutable_grad();
    window.sums[k].add_(half_grad.to(torch::kFloat));
    half_grad.zero_();
  }
}

int main() {
  torch::nn::Sequential net(torch::nn::Linear(16, 16), torch::nn::Tanh(), torch::nn::Linear(16, 1));
  net->to(torch::kHalf);
  Fp32Window window(net->parameters());
  std::vector<torch::Tensor> masters;
  for (const auto &p : net->parameters())
    masters.push_back(p.detach().to(torch::kFloat).requires_grad_(true));
  torch::optim::SGD sgd(masters, torch::optim::SGDOptions(0.05));
  const int n = 4;
  for (int it = 0; it < 400; ++it) {
    micro_step(net, window, torch::randn({8, 16}, torch::kHalf), torch::randn({8, 1}, torch::kHalf), n);
    if ((it + 1) % n == 0) {
      for (size_t k = 0; k < masters.size(); ++k) {
        masters[k].mutable_grad() = window.sums[k].clone();
        window.sums[k].zero_();
      }
      sgd.step();
      sgd.zero_grad();
      torch::NoGradGuard no_grad;
      for (size_t k = 0; k < masters.size(); ++k)
        window.params[k].copy_(masters[k]);
    }
  }
}
