// RUN: %check_gradlint %s
// The dtype is a namespace-scope constant: changing it would change every other use in the
// file, so no fix-it is offered.
#include <torch/torch.h>

constexpr auto kTrainDtype = torch::kBFloat16;

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  model->to(kTrainDtype);
  torch::optim::SGD optimizer(model->parameters(), 0.05);
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i].to(kTrainDtype)), ys[i].to(kTrainDtype)) /
                accum_steps;
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates N = {{.*}} [accum-fp16-grad-accumulation]
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}
