// RUN: %check_gradlint %s
// Two optimizers at the same boundary: Adam for the encoder keeps its lr, SGD
// for the head has lr / N (equivalent to loss / N for SGD). No adaptive lr is divided.
#include <torch/torch.h>

void train(torch::nn::Linear encoder, torch::nn::Linear head, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys) {
  const int accum = 4;
  torch::optim::Adam enc_opt(encoder->parameters(), torch::optim::AdamOptions(1e-4));
  torch::optim::SGD head_opt(head->parameters(), torch::optim::SGDOptions(0.4 / accum));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(head->forward(encoder->forward(xs[i])), ys[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      enc_opt.step();
      head_opt.step();
      enc_opt.zero_grad();
      head_opt.zero_grad();
    }
  }
}
