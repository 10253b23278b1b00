// RUN: %check_gradlint %s
// A SUM all-reduce (c10d's default) whose tensor list happens to be named
// `to_average`, then one division by the world size: correct. The name must not
// make the all-reduce count as an AVG reduce.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           torch::optim::SGD &opt, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  const int world = pg->getSize();
  const int accum_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> to_average{p.grad()};
        pg->allreduce(to_average)->wait();
        p.mutable_grad().div_(world);
      }
      opt.step();
      opt.zero_grad();
    }
  }
}
