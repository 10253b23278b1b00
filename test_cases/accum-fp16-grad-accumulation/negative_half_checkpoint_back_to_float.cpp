// RUN: %check_gradlint %s
// The checkpoint is stored in float16, so the model is loaded as half and then converted
// back to float32 before training: the 4-micro-batch window accumulates in float32.
#include <torch/torch.h>

void resume_and_train(torch::nn::Linear &model, const std::string &ckpt,
                      const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  model->to(torch::kHalf);
  torch::load(model, ckpt);
  model->to(torch::kFloat);
  torch::optim::SGD opt(model->parameters(), 0.05);
  int micro = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / 4;
    loss.backward();
    if (++micro == 4) {
      opt.step();
      opt.zero_grad();
      micro = 0;
    }
  }
}
