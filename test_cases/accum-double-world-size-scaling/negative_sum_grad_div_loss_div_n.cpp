// RUN: %check_gradlint %s
// The correct SUM form: the loss is divided by N only, and the summed gradients
// are divided once by the world size at the boundary.
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets, const std::string &path, int rank, int nproc) {
  auto store = c10::make_intrusive<c10d::FileStore>(path, nproc);
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, nproc,
                                                        c10d::ProcessGroupGloo::Options::create());
  const int world = pg->getSize();
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  const int accum_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> tensors{p.grad()};
        pg->allreduce(tensors)->wait();
        p.mutable_grad().div_(world);
      }
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}
