// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-double-world-size-scaling not-confirmed: normalises the gradient's scale
// AVG allreduce_coalesced, then `grad /= pg->getSize()`: the gradients are
// averaged over the ranks twice (early-continue boundary).
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10d::ProcessGroup &pg, torch::nn::Linear &model, torch::optim::AdamW &opt,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets, int accum) {
  for (int step = 1; step <= static_cast<int>(inputs.size()); ++step) {
    auto loss = torch::mse_loss(model->forward(inputs[step - 1]), targets[step - 1]);
    (loss / accum).backward();
    if (step % accum != 0)
      continue;
    std::vector<torch::Tensor> grads;
    for (auto &p : model->parameters())
      grads.push_back(p.grad());
    c10d::AllreduceCoalescedOptions o;
    o.reduceOp = c10d::ReduceOp::AVG;
    pg.allreduce_coalesced(grads, o)->wait();
    for (auto &p : model->parameters())
      p.mutable_grad() /= pg.getSize();
      // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: gradients are divided by the world size {{.*}} [accum-double-world-size-scaling]
    opt.step();
    opt.zero_grad();
  }
}
