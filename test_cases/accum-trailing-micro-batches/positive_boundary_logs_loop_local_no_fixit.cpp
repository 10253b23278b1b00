// RUN: %check_gradlint %s
// The boundary branch prints the micro-batch's loss, a variable of the loop body: a copy of the
// branch after the loop would not compile, so no flush is offered (the counter runs on across
// epochs, so the last-batch extension is not offered either).
#include <torch/torch.h>
#include <iostream>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int epochs) {
  torch::optim::SGD opt(model->parameters(), 0.05);
  const int accum = 4;
  int micro = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
      loss.backward();
      if (++micro == accum) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window {{.*}} [accum-trailing-micro-batches]
        std::cout << "loss " << loss.item<double>() << std::endl;
        opt.step();
        opt.zero_grad();
        micro = 0;
      }
    }
    opt.zero_grad();
  }
}
