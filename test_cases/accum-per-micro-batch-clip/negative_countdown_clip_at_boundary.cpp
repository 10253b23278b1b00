// RUN: %check_gradlint %s
// A countdown window (`remaining--`, boundary where it reaches 0, reset to N there) with the
// clip inside the boundary branch, before step(): it clips the full window sum once.
#include <torch/torch.h>
#include <vector>

struct Step {
  torch::Tensor x, y;
};

void fit(torch::nn::Sequential &net, torch::optim::Adam &adam, const std::vector<Step> &steps,
         size_t accumulation) {
  size_t remaining = accumulation;
  for (const Step &s : steps) {
    auto loss = torch::mse_loss(net->forward(s.x), s.y) / static_cast<double>(accumulation);
    loss.backward();
    remaining--;
    if (remaining == 0) {
      torch::nn::utils::clip_grad_norm_(net->parameters(), 5.0);
      adam.step();
      adam.zero_grad();
      remaining = accumulation;
    }
  }
}
