// RUN: %check_gradlint %s
// The factor lives in a variable initialised to 1/N: `(loss * scale).backward()`;
// optimizer in a std::shared_ptr.
#include <torch/torch.h>

void train(torch::nn::Linear model, std::shared_ptr<torch::optim::Adam> opt,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  const int N = 4;
  const float scale = 1.0f / N;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    (loss * scale).backward();
    if ((i + 1) % N == 0) {
      opt->step();
      opt->zero_grad();
    }
  }
}
