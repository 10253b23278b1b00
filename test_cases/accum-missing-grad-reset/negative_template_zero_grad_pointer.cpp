// RUN: %check_gradlint %s
// Function template with the optimizer behind a unique_ptr; it resets through
// optimizer->zero_grad() after each boundary step().
#include <torch/torch.h>

template <typename Optim>
void train_epoch(torch::nn::Sequential &net, std::unique_ptr<Optim> &optimizer,
                 const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  constexpr int kMicroBatches = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(net->forward(xs[i]), ys[i]) / kMicroBatches;
    loss.backward();
    if (i % kMicroBatches == kMicroBatches - 1) {
      optimizer->step();
      optimizer->zero_grad();
    }
  }
}

void run(torch::nn::Sequential net, const std::vector<torch::Tensor> &xs,
         const std::vector<torch::Tensor> &ys) {
  auto sgd = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.05));
  train_epoch(net, sgd, xs, ys);
}
