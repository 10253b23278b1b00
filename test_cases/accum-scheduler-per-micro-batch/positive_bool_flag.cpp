// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-scheduler-per-micro-batch confirmed: update 0\.500x
// The boundary is kept in a bool; the scheduler is stepped outside the
// `if (do_update)` block, so it advances on every micro-batch.
#include <torch/torch.h>

void train(torch::nn::Sequential model, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys) {
  torch::optim::AdamW opt(model->parameters(), torch::optim::AdamWOptions(3e-4).weight_decay(0.0));
  torch::optim::StepLR schedule(opt, /*step_size=*/2, /*gamma=*/0.5);
  const int64_t n_accum = 4;
  for (int64_t k = 0; k < static_cast<int64_t>(xs.size()); ++k) {
    const bool do_update = (k + 1) % n_accum == 0;
    auto objective = torch::mse_loss(model->forward(xs[k]), ys[k]) / n_accum;
    objective.backward();
    if (do_update) {
      opt.step();
      // CHECK-FIXES: {{^}}      opt.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      schedule.step();{{$}}
      opt.zero_grad();
    }
    schedule.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: learning-rate scheduler steps on every micro-batch {{.*}} [accum-scheduler-per-micro-batch]
    // CHECK-FIXES: {{^}}    }{{$}}
    // CHECK-FIXES-NEXT: {{^}}  }{{$}}
  }
}
