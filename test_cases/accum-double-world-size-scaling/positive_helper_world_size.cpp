// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-double-world-size-scaling not-confirmed: normalises the gradient's scale
// The world size comes from a helper `int world_size()` reading WORLD_SIZE; the
// gradient all-reduce is AVG, so dividing the loss by it as well is redundant.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

#include <cstdlib>
#include <string>

static int world_size() { return std::stoi(std::getenv("WORLD_SIZE")); }

void train(c10d::ProcessGroup &pg, torch::nn::Linear model, torch::optim::Adam &adam,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  const int accum_steps = 2;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]);
    auto scaled = loss / (accum_steps * world_size());
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: loss is divided by the world size {{.*}} [accum-double-world-size-scaling]
    // CHECK-FIXES: {{^}}    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    auto scaled = loss / accum_steps;{{$}}
    scaled.backward();
    if ((i + 1) % accum_steps == 0 || i + 1 == inputs.size()) {
      c10d::AllreduceOptions avg;
      avg.reduceOp = c10d::ReduceOp::AVG;
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> grads{p.grad()};
        pg.allreduce(grads, avg)->wait();
      }
      adam.step();
      adam.zero_grad();
    }
  }
}
