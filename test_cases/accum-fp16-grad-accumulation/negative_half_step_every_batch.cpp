// RUN: %check_gradlint %s
// float16 model but no accumulation: step() and zero_grad() run after every backward(),
// so .grad holds a single micro-batch's gradient and nothing is summed in half precision.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  model->to(torch::kHalf);
  torch::optim::SGD opt(model->parameters(), 0.01);
  for (size_t i = 0; i < xs.size(); ++i) {
    opt.zero_grad();
    auto loss = torch::mse_loss(model->forward(xs[i].to(torch::kHalf)), ys[i].to(torch::kHalf));
    loss.backward();
    opt.step();
  }
}
