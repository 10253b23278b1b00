// RUN: %check_gradlint %s
// Module::zero_grad() (set_to_none) in the boundary branch after step(), in a
// while loop with a pre-increment counter guard.
#include <torch/torch.h>

void train(torch::nn::Sequential seq, torch::optim::SGD &opt, std::vector<torch::Tensor> xs,
           std::vector<torch::Tensor> ys) {
  const int micro_batches = 3;
  int micro = 0;
  size_t i = 0;
  while (i < xs.size()) {
    auto loss = torch::cross_entropy_loss(seq->forward(xs[i]), ys[i]);
    loss = loss / micro_batches;
    loss.backward();
    if (++micro == micro_batches) {
      opt.step();
      seq->zero_grad(/*set_to_none=*/true);
      micro = 0;
    }
    ++i;
  }
}
