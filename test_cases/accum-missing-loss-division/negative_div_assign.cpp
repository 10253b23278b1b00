// RUN: %check_gradlint %s
// `loss /= N` before backward(), in a do-while loop with the `continue` guard.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::Adam &adam, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int n_acc = 2;
  size_t it = 0;
  do {
    torch::Tensor l = torch::smooth_l1_loss(model->forward(xs[it]), ys[it]);
    l /= n_acc;
    l.backward();
    ++it;
    if (it % n_acc != 0)
      continue;
    adam.step();
    adam.zero_grad();
  } while (it < xs.size());
}
