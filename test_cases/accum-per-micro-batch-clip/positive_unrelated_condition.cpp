// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds
// A configuration flag unrelated to the window guards the clip; it still runs on
// every micro-batch whenever clipping is enabled.
#include <torch/torch.h>

struct Config {
  bool clip = true;
  double max_norm = 1.0;
  int accum = 4;
};

void train(const Config &cfg, torch::nn::Linear &model, torch::optim::SGD &opt,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / cfg.accum;
    loss.backward();
    if (cfg.clip && cfg.max_norm > 0)
      torch::nn::utils::clip_grad_norm_(model->parameters(), cfg.max_norm);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs on every micro-batch {{.*}} [accum-per-micro-batch-clip]
    // CHECK-FIXES-UNSAFE: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if ((i + 1) % cfg.accum == 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if (cfg.clip && cfg.max_norm > 0){{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}        torch::nn::utils::clip_grad_norm_(model->parameters(), cfg.max_norm);{{$}}
    if ((i + 1) % cfg.accum == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
