// TRUTH: correct: loss computed by a lambda that returns loss * (1.0 / accum), std::function logging/eval callbacks, step + zero_grad at the boundary; no numerical effect expected.
#include <torch/torch.h>

#include <functional>
#include <iostream>
#include <vector>

using LossFn = std::function<torch::Tensor(const torch::Tensor&, const torch::Tensor&)>;
using StepHook = std::function<void(int64_t, double)>;

int main() {
  torch::nn::Sequential model(torch::nn::Linear(5, 10), torch::nn::ReLU(), torch::nn::Linear(10, 1));
  torch::optim::SGD optim(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.5));

  const int accum = 4;
  LossFn criterion = [](const torch::Tensor& pred, const torch::Tensor& target) {
    return torch::smooth_l1_loss(pred, target);
  };
  auto micro_loss = [&](const torch::Tensor& x, const torch::Tensor& y) {
    return criterion(model->forward(x), y) * (1.0 / accum);
  };
  StepHook on_step = [](int64_t step, double loss) {
    if (step % 10 == 0) std::cout << "step " << step << " loss " << loss << '\n';
  };

  std::vector<std::pair<torch::Tensor, torch::Tensor>> data(100);
  for (auto& d : data) d = {torch::randn({16, 5}), torch::randn({16, 1})};

  int64_t optimizer_steps = 0;
  double window_loss = 0.0;
  for (size_t i = 0; i < data.size(); ++i) {
    auto loss = micro_loss(data[i].first, data[i].second);
    loss.backward();
    window_loss += loss.item<double>();
    if ((i + 1) % accum == 0) {
      optim.step();
      optim.zero_grad();
      on_step(++optimizer_steps, window_loss);
      window_loss = 0.0;
    }
  }
  return 0;
}
