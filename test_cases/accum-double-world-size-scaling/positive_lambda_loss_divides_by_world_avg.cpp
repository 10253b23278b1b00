// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-double-world-size-scaling not-confirmed: normalises the gradient's scale
// A loss lambda divides by the world size read from the process group, and the
// gradients are all-reduced with ReduceOp::AVG: W is divided out twice.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear model,
           torch::optim::Adam &opt, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, int accum_steps) {
  auto compute_loss = [&](const torch::Tensor &x, const torch::Tensor &y) {
    return torch::mse_loss(model->forward(x), y).div(pg->getSize());
    // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: loss is divided by the world size {{.*}} [accum-double-world-size-scaling]
    // CHECK-FIXES: {{^}}  auto compute_loss = [&](const torch::Tensor &x, const torch::Tensor &y) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}    return torch::mse_loss(model->forward(x), y);{{$}}
  };
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = compute_loss(xs[i], ys[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> grads{p.grad()};
        c10d::AllreduceOptions opts;
        opts.reduceOp = c10d::ReduceOp::AVG;
        pg->allreduce(grads, opts)->wait();
      }
      opt.step();
      opt.zero_grad();
    }
  }
}
