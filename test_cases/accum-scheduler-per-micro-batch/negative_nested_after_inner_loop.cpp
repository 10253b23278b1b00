// RUN: %check_gradlint %s
// The inner loop runs the N micro-batches of one window; optimizer and scheduler
// are both stepped after it, once per window.
#include <torch/torch.h>

void train(torch::nn::Sequential model, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  torch::optim::StepLR lr_decay(sgd, 2, 0.5);
  const size_t micro_batches = 4;
  for (size_t start = 0; start + micro_batches <= xs.size(); start += micro_batches) {
    sgd.zero_grad();
    for (size_t m = 0; m < micro_batches; ++m) {
      auto loss = torch::mse_loss(model->forward(xs[start + m]), ys[start + m]);
      (loss / static_cast<double>(micro_batches)).backward();
    }
    sgd.step();
    lr_decay.step();
  }
}
