// RUN: %check_gradlint %s
// A pending-update counter advanced with `+= 1` and reset at the boundary is a window
// of N micro-batches; the reset at the top of every micro-batch discards N - 1 of them.
#include <torch/torch.h>

struct Trainer {
  torch::nn::Sequential net{torch::nn::Linear(16, 8), torch::nn::ReLU(), torch::nn::Linear(8, 1)};
  torch::optim::AdamW opt{net->parameters(), torch::optim::AdamWOptions(1e-3)};
  int updates_every = 8;
  int pending = 0;

  void observe(const torch::Tensor &features, const torch::Tensor &target) {
    opt.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
    // CHECK-FIXES: {{^}}  void observe(const torch::Tensor &features, const torch::Tensor &target) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}    auto loss = torch::smooth_l1_loss(net->forward(features), target) / updates_every;{{$}}
    auto loss = torch::smooth_l1_loss(net->forward(features), target) / updates_every;
    loss.backward();
    pending += 1;
    if (pending >= updates_every) {
      opt.step();
      // CHECK-FIXES: {{^}}      opt.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      opt.zero_grad();{{$}}
      pending = 0;
    }
  }
};

void run(Trainer &trainer, torch::data::Example<> batch) {
  for (int epoch = 0; epoch < 3; ++epoch)
    trainer.observe(batch.data, batch.target);
}
