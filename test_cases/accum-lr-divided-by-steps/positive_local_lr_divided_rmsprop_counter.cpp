// RUN: %check_gradlint %s
// The learning rate of RMSprop is divided by N in a local that only the options read: the
// division goes from its initializer.
#include <torch/torch.h>

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  const int micro_batches = 8;
  double step_size = 1e-3 / micro_batches;
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: learning rate of an {{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}  const int micro_batches = 8;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  double step_size = 1e-3;{{$}}
  torch::optim::RMSprop rmsprop(model->parameters(), torch::optim::RMSpropOptions(step_size));
  int seen = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / micro_batches;
    loss.backward();
    if (++seen == micro_batches) {
      rmsprop.step();
      rmsprop.zero_grad();
      seen = 0;
    }
  }
}
