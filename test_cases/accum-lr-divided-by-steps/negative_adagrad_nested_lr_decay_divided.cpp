// RUN: %check_gradlint %s
// Adagrad's lr_decay (not the lr) is divided by the micro-batch count; nested
// loops, the inner one runs the window's micro-batches.
#include <torch/torch.h>

void train(torch::nn::Sequential model, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys) {
  const size_t micro_batches = 4;
  torch::optim::Adagrad ada(model->parameters(),
                            torch::optim::AdagradOptions(0.05).lr_decay(1e-2 / micro_batches));
  for (size_t start = 0; start + micro_batches <= xs.size(); start += micro_batches) {
    for (size_t m = 0; m < micro_batches; ++m) {
      auto loss = torch::mse_loss(model->forward(xs[start + m]), ys[start + m]);
      (loss / static_cast<double>(micro_batches)).backward();
    }
    ada.step();
    ada.zero_grad();
  }
}
