// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-scheduler-per-micro-batch confirmed: update 0\.500x
// A function template over the model type with a while loop; the scheduler is
// stepped on every micro-batch, before the boundary test.
#include <torch/torch.h>

template <typename Module>
void train_loop(Module &model, torch::optim::Optimizer &optimizer,
                std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::StepLR scheduler(optimizer, 1, 0.5);
  const size_t accum_steps = 2;
  size_t i = 0;
  while (i < inputs.size()) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / static_cast<double>(accum_steps);
    loss.backward();
    scheduler.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: learning-rate scheduler steps on every micro-batch {{.*}} [accum-scheduler-per-micro-batch]
    // CHECK-FIXES: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if ((i + 1) % accum_steps == 0) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      optimizer.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}      scheduler.step();{{$}}
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
    ++i;
  }
}

void run(torch::nn::Linear model, std::vector<torch::Tensor> &x, std::vector<torch::Tensor> &y) {
  torch::optim::SGD sgd(model->parameters(), 0.1);
  train_loop(model, sgd, x, y);
}
