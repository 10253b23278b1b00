// RUN: %check_gradlint %s
// A static loss scale and the division by N folded into one factor: loss * (scale / N)
// divides by N.
#include <torch/torch.h>

struct Runner {
  torch::nn::Linear net{8, 1};
  torch::optim::SGD sgd{net->parameters(), torch::optim::SGDOptions(0.02)};
  double loss_scale = 128.0;
  int grad_accum = 4;

  void run(const std::vector<torch::Tensor> &xs) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = net->forward(xs[i]).square().mean();
      (loss * (loss_scale / grad_accum)).backward();
      if ((i + 1) % grad_accum == 0) {
        for (auto &p : net->parameters())
          p.mutable_grad().div_(loss_scale);
        sgd.step();
        sgd.zero_grad();
      }
    }
  }
};
