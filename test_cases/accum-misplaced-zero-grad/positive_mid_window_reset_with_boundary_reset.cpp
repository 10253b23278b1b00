// RUN: %check_gradlint %s
// A reset at the window's third micro-batch, and a correct one after step(): the guarded reset
// is deleted, the boundary one already does the job.
#include <torch/torch.h>

void train(torch::nn::Linear &model, torch::optim::AdamW &adamw,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  const int64_t accum = 4;
  for (int64_t i = 0; i < static_cast<int64_t>(xs.size()); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if (i % accum == 2)
      adamw.zero_grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient reset runs between {{.*}} [accum-misplaced-zero-grad]
    // CHECK-FIXES-UNSAFE: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if ((i + 1) % accum == 0) {{{$}}
    if ((i + 1) % accum == 0) {
      adamw.step();
      adamw.zero_grad();
    }
  }
}
