// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-scheduler-per-micro-batch confirmed: update 1\.000x
// Nested loops: the inner loop runs the N micro-batches of one window and the
// update follows it; the scheduler is stepped inside the inner loop, N times per update.
#include <torch/torch.h>

void train(torch::nn::Sequential model, std::vector<torch::Tensor> &xs,
           std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::optim::StepLR sched(sgd, /*step_size=*/2, /*gamma=*/0.5);
  const size_t micro_batches = 2;
  for (size_t start = 0; start + micro_batches <= xs.size(); start += micro_batches) {
    for (size_t m = 0; m < micro_batches; ++m) {
      auto out = model->forward(xs[start + m]);
      auto loss = torch::mse_loss(out, ys[start + m]) / static_cast<double>(micro_batches);
      loss.backward();
      sched.step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: learning-rate scheduler steps on every micro-batch {{.*}} [accum-scheduler-per-micro-batch]
      // CHECK-FIXES: {{^}}      loss.backward();{{$}}
      // CHECK-FIXES-NEXT: {{^}}    }{{$}}
      // CHECK-FIXES-NEXT: {{^}}    sgd.step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}    sched.step();{{$}}
    }
    sgd.step();
    sgd.zero_grad();
  }
}
