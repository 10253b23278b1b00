// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.500x
// Distributed run, lr / world / accum: the world-size division is the author's
// choice, the further division by the accumulation steps shrinks every Adam update.
// lr and the world size are not constants: the confirmation runs Adam's default
// lr divided by N, as written, against the default lr.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(torch::nn::Sequential model, c10::intrusive_ptr<c10d::ProcessGroup> pg,
           std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys, double lr) {
  const int world = pg->getSize();
  const int accum = 2;
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(lr / world / accum));
  // CHECK-MESSAGES: :[[@LINE-1]]:85: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}  const int accum = 2;{{$}}
  // CHECK-FIXES-NEXT: {{^}}  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions((lr / world)));{{$}}
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if ((i + 1) % accum != 0)
      continue;
    for (auto &p : model->parameters()) {
      std::vector<torch::Tensor> grads{p.grad()};
      pg->allreduce(grads)->wait();
      p.grad().div_(world);
    }
    adam.step();
    adam.zero_grad();
  }
}
