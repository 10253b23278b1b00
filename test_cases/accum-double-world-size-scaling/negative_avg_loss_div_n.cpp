// RUN: %check_gradlint %s
// AVG all-reduce with the loss divided by the accumulation steps only: correct.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  const int64_t world = pg->getSize();
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.1 * world));
  const int k = 4;
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / k;
    loss.backward();
    if ((i + 1) % k == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> t{p.grad()};
        pg->allreduce(t, opts)->wait();
      }
      sgd.step();
      sgd.zero_grad();
    }
  }
}
