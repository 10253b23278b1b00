// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync confirmed: limit 0\.05 binds
// The boundary branch clips the local gradient, all-reduces, and clips again:
// the second clip is the right one, so the fix deletes the first.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train_epoch(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
                 std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  const int accum_steps = 4;
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs before the gradient all-reduce {{.*}} [accum-clip-before-sync]
      // CHECK-FIXES: {{^}}    if ((i + 1) % accum_steps == 0) {{{$}}
      // CHECK-FIXES-NEXT: {{^}}      for (auto &p : model->parameters()) {{{$}}
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> t{p.grad()};
        pg->allreduce(t, opts)->wait();
      }
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}
