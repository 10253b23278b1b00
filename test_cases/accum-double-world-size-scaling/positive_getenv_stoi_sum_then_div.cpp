// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-double-world-size-scaling not-confirmed: normalises the gradient's scale
// SUM all-reduce followed by grad.div_(world_size) already averages over ranks;
// dividing the loss by WORLD_SIZE (std::stoi(std::getenv)) as well divides W
// out twice.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

#include <cstdlib>
#include <string>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  const int world_size = std::stoi(std::getenv("WORLD_SIZE"));
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3));
  const int accum_steps = 8;
  for (int i = 0; i < static_cast<int>(inputs.size()); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]);
    (loss / (accum_steps * world_size)).backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: loss is divided by the world size {{.*}} [accum-double-world-size-scaling]
    // CHECK-FIXES: {{^}}    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (loss / accum_steps).backward();{{$}}
    if (i % accum_steps == accum_steps - 1) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> g{p.grad()};
        pg->allreduce(g)->wait();
        p.mutable_grad().div_(world_size);
      }
      adam.step();
      adam.zero_grad();
    }
  }
}
