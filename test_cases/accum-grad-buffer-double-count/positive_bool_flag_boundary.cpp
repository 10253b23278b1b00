// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-grad-buffer-double-count confirmed: gradients weighted 2, 1
// The boundary is first stored in a bool. Gradients are summed into the buffer on every
// micro-batch with no reset of .grad in between, so early micro-batches weigh more.
#include <torch/torch.h>

void train_with_flag(torch::nn::Sequential net, const std::vector<torch::Tensor> &feats,
                     const std::vector<torch::Tensor> &labels) {
  torch::optim::AdamW opt(net->parameters(), torch::optim::AdamWOptions(3e-4));
  const int64_t grad_accum = 2;
  auto params = net->parameters();
  std::vector<torch::Tensor> bucket;
  for (auto &p : params) bucket.push_back(torch::zeros_like(p));
  for (size_t it = 0; it < feats.size(); ++it) {
    const bool apply_update = (it + 1) % grad_accum == 0;
    auto logits = net->forward(feats[it]);
    auto loss = torch::nn::functional::cross_entropy(logits, labels[it]) / grad_accum;
    loss.backward();
    for (size_t q = 0; q < params.size(); ++q) {
      bucket[q].add_(params[q].grad());
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: the gradient buffer {{.*}} [accum-grad-buffer-double-count]
      // CHECK-FIXES: {{^}}      bucket[q].add_(params[q].grad());{{$}}
      // CHECK-FIXES-NEXT: {{^}}      params[q].grad().zero_();{{$}}
    }
    if (apply_update) {
      for (size_t q = 0; q < params.size(); ++q) {
        params[q].mutable_grad() = bucket[q];
        bucket[q] = torch::zeros_like(params[q]);
      }
      opt.step();
      opt.zero_grad();
    }
  }
}
