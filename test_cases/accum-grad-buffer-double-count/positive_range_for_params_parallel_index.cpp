// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: gradients weighted 2, 1
// Range-for over model->parameters() with a parallel index into the buffer vector; the add is
// on every micro-batch and .grad is cleared only after the optimizer step.
#include <torch/torch.h>

void train_mlp(torch::nn::Sequential mlp, const std::vector<torch::Tensor> &inputs,
               const std::vector<torch::Tensor> &outputs) {
  torch::optim::SGD sgd(mlp->parameters(), 0.05);
  const int micro_batches = 2;
  std::vector<torch::Tensor> accum_grads;
  for (auto &p : mlp->parameters()) {
    accum_grads.push_back(torch::zeros_like(p));
  }
  for (size_t s = 0; s < inputs.size(); ++s) {
    auto loss = torch::mse_loss(mlp->forward(inputs[s]), outputs[s]);
    loss.backward();
    size_t idx = 0;
    for (auto &p : mlp->parameters()) {
      accum_grads[idx] += p.grad();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
      // CHECK-FIXES: {{^}}      accum_grads[idx] += p.grad();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      p.grad().zero_();{{$}}
      ++idx;
    }
    if ((s + 1) % micro_batches == 0) {
      idx = 0;
      for (auto &p : mlp->parameters()) {
        p.mutable_grad() = accum_grads[idx] / micro_batches;
        accum_grads[idx].zero_();
        ++idx;
      }
      sgd.step();
      sgd.zero_grad();
    }
  }
}
