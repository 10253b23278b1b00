// RUN: %check_gradlint %s
// A schedule struct: `micro_per_rank` is filled from `accumulation` (both start at 1 by
// default). The inner loop runs micro_per_rank micro-batches and the loss is scaled by
// 1 / (accumulation * replicas): the division by N is there, under the other field's name.
#include <torch/torch.h>

struct Schedule {
  int64_t accumulation = 1;
  int64_t micro_per_rank = 1;
};

Schedule plan_schedule(int64_t global_batch, int64_t micro_batch, int64_t replicas) {
  Schedule s;
  s.accumulation = global_batch / (micro_batch * replicas);
  s.micro_per_rank = s.accumulation;
  return s;
}

void fit(torch::nn::Sequential net, torch::optim::AdamW &opt, int64_t replicas,
         const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  const Schedule schedule = plan_schedule(256, 8, replicas);
  size_t cursor = 0;
  for (int update = 0; update < 100; ++update) {
    const float share = 1.0f / static_cast<float>(schedule.accumulation * replicas);
    for (int64_t m = 0; m < schedule.micro_per_rank; ++m, ++cursor) {
      auto loss = torch::mse_loss(net->forward(xs[cursor % xs.size()]), ys[cursor % ys.size()]);
      loss.mul(share).backward();
    }
    opt.step();
    opt.zero_grad();
  }
}
