// RUN: %check_gradlint %s
// A user-defined LRScheduler subclass (linear warm-up) stepped on every micro-batch:
// the warm-up finishes after warmup/N optimizer steps instead of warmup. The runtime does
// not execute user-defined schedulers: a stand-in StepLR that advances on every call runs in
// its place and shows the schedule advancing N times per optimizer step.
#include <torch/torch.h>

class LinearWarmup : public torch::optim::LRScheduler {
public:
  LinearWarmup(torch::optim::Optimizer &optimizer, unsigned warmup, double base_lr)
      : torch::optim::LRScheduler(optimizer), warmup_(warmup), base_lr_(base_lr) {}

private:
  std::vector<double> get_lrs() override {
    double scale = step_count_ < warmup_ ? double(step_count_ + 1) / warmup_ : 1.0;
    return std::vector<double>(get_current_lrs().size(), base_lr_ * scale);
  }
  unsigned warmup_;
  double base_lr_;
};

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(1e-3));
  LinearWarmup warmup(optimizer, 100, 1e-3);
  const int accum_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    warmup.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: learning-rate scheduler steps on every micro-batch {{.*}} [accum-scheduler-per-micro-batch]
    // CHECK-FIXES: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if ((i + 1) % accum_steps == 0) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      optimizer.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}      warmup.step();{{$}}
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}
