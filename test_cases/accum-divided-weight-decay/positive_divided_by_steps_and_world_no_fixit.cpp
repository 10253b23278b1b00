// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-divided-weight-decay confirmed: weight decay [0-9.]+ as written vs 0\.01 in the reference
// Data-parallel loop whose decay is divided by accum_steps * world: the accumulation part
// is the bug. No fix-it: dropping the whole divisor would drop the world-size factor too.
// Without a fix-it the loop as written runs against the reference alone, whose
// decay is not divided by N.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train_ddp(torch::nn::Linear model, c10::intrusive_ptr<c10d::ProcessGroup> pg,
               const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  const int accum_steps = 2;
  const int world = pg->getSize();
  torch::optim::SGD opt(model->parameters(),
                        torch::optim::SGDOptions(0.05).weight_decay(0.2 / (accum_steps * world)));
  // CHECK-MESSAGES: :[[@LINE-1]]:73: warning: weight decay is divided by the accumulation steps {{.*}} [accum-divided-weight-decay]
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> bufs{p.grad()};
        pg->allreduce(bufs)->wait();
        p.grad().div_(world);
      }
      opt.step();
      opt.zero_grad();
    }
  }
}
