// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-divided-weight-decay confirmed: weight decay 0.05 as written vs 0.2
// Range-for over the batches with a separate counter; the decay is divided by
// `static_cast<double>(accum)`, which is still the accumulation steps.
#include <torch/torch.h>

struct Batch {
  torch::Tensor data;
  torch::Tensor target;
};

void train(torch::nn::Linear model, const std::vector<Batch> &batches) {
  const int64_t accum = 4;
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(0.05).weight_decay(
                                                         0.2 / static_cast<double>(accum)));
  // CHECK-MESSAGES: :[[@LINE-1]]:62: warning: weight decay is divided by the accumulation steps {{.*}} [accum-divided-weight-decay]
  // CHECK-FIXES: {{^}}  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(0.05).weight_decay({{$}}
  // CHECK-FIXES-NEXT: {{^}}                                                         0.2));{{$}}
  int64_t seen = 0;
  for (const auto &batch : batches) {
    auto loss = torch::mse_loss(model->forward(batch.data), batch.target) / accum;
    loss.backward();
    if (++seen % accum == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}
