// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x the large-batch update
// The divided learning rate is stored in a local that is also printed: dropping the division
// would change the log too, so no fix-it is offered.
#include <torch/torch.h>
#include <iostream>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int accum = 4;
  const double lr = 3e-4 / accum;
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: learning rate of an {{.*}} [accum-lr-divided-by-steps]
  std::cout << "lr " << lr << std::endl;
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(lr));
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      adam.step();
      adam.zero_grad();
    }
  }
}
