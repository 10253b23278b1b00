// RUN: %check_gradlint %s
// The only all-reduce sums the loss *value* for logging, then divides it by the
// world size for display; gradients are never all-reduced here, so there is no
// double division by the world size.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

#include <iostream>

void train(c10d::ProcessGroup &pg, torch::nn::Linear &model, torch::optim::SGD &opt,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  const int world = pg.getSize();
  const int accum_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
      std::vector<torch::Tensor> logged{loss.detach().clone()};
      pg.allreduce(logged)->wait();
      std::cout << "mean loss " << (logged[0] / world).item<float>() << "\n";
    }
  }
}
