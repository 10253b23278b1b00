// RUN: %check_gradlint %s
// The denominator is a variable initialised from accum_steps * world_size;
// with SUM + grad.div_(world_size) at the boundary, the loss division by it
// divides W out twice.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

#include <cstdlib>
#include <string>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           torch::optim::SGD &opt, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  const int world_size = std::stoi(std::getenv("WORLD_SIZE"));
  const int accum_steps = 4;
  const double denom = static_cast<double>(accum_steps * world_size);
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]);
    auto scaled = loss / denom;
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: loss is divided by the world size {{.*}} [accum-double-world-size-scaling]
    scaled.backward();
    if ((i + 1) % accum_steps == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> g{p.grad()};
        pg->allreduce(g)->wait();
        p.mutable_grad().div_(world_size);
      }
      opt.step();
      opt.zero_grad();
    }
  }
}
