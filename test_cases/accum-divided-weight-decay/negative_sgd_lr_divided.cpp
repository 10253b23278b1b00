// RUN: %check_gradlint %s
// SGD whose learning rate (not its weight decay) is divided by N instead of the loss:
// for SGD that is the same update, and the weight decay is untouched.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int accum = 4;
  torch::optim::SGD sgd(model->parameters(),
                        torch::optim::SGDOptions(0.2 / accum).momentum(0.9).weight_decay(1e-4));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    loss.backward();
    if ((i + 1) % accum == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}
