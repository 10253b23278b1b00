// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: normalises the gradient's scale
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.250x the large-batch update
// A trainer that "scales the learning rate by the accumulation steps" in its
// constructor, for AdamW: AdamW divides each update by the gradient's running
// scale, so the smaller rate does not stand in for the missing loss division.
#include <torch/torch.h>

struct DiffusionTrainer {
  DiffusionTrainer(double lr, int accumulation_steps) {
    this->lr = lr / accumulation_steps;
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
    this->accumulation_steps = accumulation_steps;
  }

  void train(torch::nn::Sequential denoiser, const std::vector<torch::Tensor> &images) {
    torch::optim::AdamW optimizer(denoiser->parameters(), lr);
    int64_t step = 0;
    for (const auto &image : images) {
      auto noise = torch::randn_like(image);
      auto loss = torch::sum((denoiser->forward(image + noise) - noise).pow(2), {1}, true).mean();
      loss.backward();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: loss passed to backward() is not divided by the accumulation steps (N = accumulation_steps); {{.*}} [accum-missing-loss-division]
      // CHECK-MESSAGES: :11:19: note: the learning rate is divided by accumulation_steps here instead; {{.*}} it makes every update accumulation_steps times smaller
      // CHECK-FIXES: {{^}}      auto loss = torch::sum((denoiser->forward(image + noise) - noise).pow(2), {1}, true).mean();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      (loss / accumulation_steps).backward();{{$}}
      if ((step + 1) % accumulation_steps == 0) {
        optimizer.step();
        denoiser->zero_grad(true);
      }
      step += 1;
    }
  }

  double lr;
  int accumulation_steps;
};
