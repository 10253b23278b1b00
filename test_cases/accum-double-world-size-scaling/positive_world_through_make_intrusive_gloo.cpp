// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-double-world-size-scaling confirmed: 0.500x the large-batch gradient \(1/W, W=2\)
// The launcher's world count is the Gloo group's size (make_intrusive<ProcessGroupGloo>), the
// gradients are SUMmed and then divided by the count, and the loss is divided by it as well.
#include <c10d/ProcessGroupGloo.hpp>
#include <c10d/TCPStore.hpp>
#include <torch/torch.h>

struct Launch {
  int rank = 0;
  int world = 1;
};

void train(const Launch &launch, const c10::intrusive_ptr<c10d::Store> &store,
           torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, launch.rank, launch.world);
  torch::optim::SGD sgd(model->parameters(), 0.05);
  const int accum = 2;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / launch.world;
    // CHECK-MESSAGES: :[[@LINE-1]]:63: warning: loss is divided by the world size (W = launch.world){{.*}} [accum-double-world-size-scaling]
    // CHECK-FIXES: {{^}}  for (size_t i = 0; i < xs.size(); ++i) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]);{{$}}
    (loss / accum).backward();
    if ((i + 1) % accum == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> one{p.grad()};
        pg->allreduce(one)->wait();
        p.grad().div_(launch.world);
      }
      sgd.step();
      sgd.zero_grad();
    }
  }
}
