// RUN: %check_gradlint %s
// average_gradients() already does SUM + div_(world size); the boundary branch
// divides the gradients by the world size a second time.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void average_gradients(c10d::ProcessGroup &pg, torch::nn::Module &model) {
  for (auto &p : model.parameters()) {
    std::vector<torch::Tensor> tensors{p.grad()};
    pg.allreduce(tensors)->wait();
    p.mutable_grad().div_(pg.getSize());
  }
}

void train(c10d::ProcessGroup &pg, torch::nn::Linear model, torch::optim::SGD &sgd,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  const int accum_steps = 8;
  const int world = pg.getSize();
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      average_gradients(pg, *model);
      for (auto &p : model->parameters())
        p.mutable_grad().div_(world);
        // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: gradients are divided by the world size {{.*}} [accum-double-world-size-scaling]
      // CHECK-FIXES: {{^}}      for (auto &p : model->parameters()){{$}}
      // CHECK-FIXES-NEXT: {{^}}        p.mutable_grad();{{$}}
      sgd.step();
      sgd.zero_grad();
    }
  }
}
