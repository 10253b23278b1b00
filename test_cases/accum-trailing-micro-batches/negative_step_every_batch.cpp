// RUN: %check_gradlint %s
// No accumulation: every batch is its own step, even though a log line uses a modulo.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int log_every = 4;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (size_t i = 0; i < xs.size(); ++i) {
      opt.zero_grad();
      auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
      loss.backward();
      opt.step();
      if ((i + 1) % log_every == 0)
        std::cout << "epoch " << epoch << " batch " << i << " loss " << loss.item<float>() << "\n";
    }
  }
}
