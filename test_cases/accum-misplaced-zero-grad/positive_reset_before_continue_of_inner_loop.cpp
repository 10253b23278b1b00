// RUN: %check_gradlint %s
// The `continue` after the reset only leaves the loop over the parameters;
// step() after that loop still runs on the cleared gradients.
#include <torch/torch.h>

void train(torch::nn::Linear net, torch::optim::SGD &sgd, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int accum = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    (torch::mse_loss(net->forward(xs[i]), ys[i]) / accum).backward();
    if ((i + 1) % accum == 0) {
      for (const auto &p : net->parameters()) {
        if (!torch::isfinite(p.grad()).all().item<bool>()) {
          sgd.zero_grad();
          // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: gradient reset runs in the boundary branch before step(){{.*}} [accum-misplaced-zero-grad]
          continue;
        }
      }
      sgd.step();
      sgd.zero_grad();
    }
  }
}
