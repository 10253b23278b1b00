// RUN: %check_gradlint %s
// A hand-written communicator averages the gradients; the clip comes after
// it, right before step().
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

class RankSync {
public:
  explicit RankSync(c10::intrusive_ptr<c10d::ProcessGroup> pg) : pg_(std::move(pg)) {}

  void allreduce_gradients(torch::nn::Module &module) {
    for (auto &p : module.parameters()) {
      std::vector<torch::Tensor> buf{p.grad()};
      pg_->allreduce(buf)->wait();
      p.grad().div_(pg_->getSize());
    }
  }

private:
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
};

void train(RankSync &sync, torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const int n_accum = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / n_accum;
    loss.backward();
    if ((i + 1) % n_accum == 0) {
      sync.allreduce_gradients(*model);
      torch::nn::utils::clip_grad_value_(model->parameters(), 0.01);
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}
