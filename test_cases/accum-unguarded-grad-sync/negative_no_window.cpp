// RUN: %check_gradlint %s
// Plain data-parallel training: all-reduce and step() on every iteration. No
// accumulation window, so syncing every iteration is required.
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets, int rank, int world) {
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/store", world);
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world,
                                                        c10d::ProcessGroupGloo::Options::create());
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  for (size_t i = 0; i < inputs.size(); ++i) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]);
    loss.backward();
    for (auto &p : model->parameters()) {
      std::vector<torch::Tensor> tensors{p.grad()};
      pg->allreduce(tensors)->wait();
      p.mutable_grad().div_(pg->getSize());
    }
    optimizer.step();
  }
}
