// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync confirmed: limit 0\.05 binds
// The gradient averaging lives in a helper function; the training loop clips
// before calling it.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

static void average_gradients(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
                              torch::nn::Module &module) {
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
  for (auto &p : module.parameters()) {
    if (!p.grad().defined())
      continue;
    std::vector<torch::Tensor> t{p.grad()};
    pg->allreduce(t, opts)->wait();
  }
}

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const int accumulation = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accumulation;
    loss.backward();
    if ((i + 1) % accumulation == 0) {
      // CHECK-FIXES: {{^}}    if ((i + 1) % accumulation == 0) {{{$}}
      // CHECK-FIXES-NEXT: {{^}}      average_gradients(pg, *model);{{$}}
      // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);{{$}}
      // CHECK-FIXES-NEXT: {{^}}      optimizer.step();{{$}}
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.05);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs before the gradient all-reduce {{.*}} [accum-clip-before-sync]
      average_gradients(pg, *model);
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}
