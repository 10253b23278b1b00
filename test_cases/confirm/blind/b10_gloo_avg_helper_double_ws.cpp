// TRUTH: buggy (two bugs): average_gradients() (SUM + div_ by getSize()) is called on every micro-batch (N=8: 8 all-reduces per step, no effect on the values since averaging is linear), and the loss is divided by (accum_steps * world_size) although the helper already averages; expect a numerical effect from the second: SGD applies 1/W of the large-batch gradient.
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>

static void average_gradients(torch::nn::Module& model, c10d::ProcessGroup& pg) {
  for (auto& p : model.parameters()) {
    if (!p.grad().defined()) continue;
    std::vector<torch::Tensor> bucket{p.mutable_grad()};
    pg.allreduce(bucket)->wait();
    p.mutable_grad().div_(pg.getSize());
  }
}

int main(int argc, char** argv) {
  int rank = argc > 1 ? std::atoi(argv[1]) : 0;
  int world = argc > 2 ? std::atoi(argv[2]) : 2;
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/ddp_store", world);
  auto opts = c10d::ProcessGroupGloo::Options::create();
  opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world, opts);

  auto model = torch::nn::Sequential(torch::nn::Linear(12, 24), torch::nn::ReLU(), torch::nn::Linear(24, 3));
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.02));

  const int accum_steps = 8;
  const int world_size = pg->getSize();
  std::vector<torch::Tensor> xs, ys;
  for (int i = 0; i < 64; ++i) {
    xs.push_back(torch::randn({4, 12}));
    ys.push_back(torch::randn({4, 3}));
  }

  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / (accum_steps * world_size);
    loss.backward();
    average_gradients(*model, *pg);
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
  if (rank == 0) std::cout << "finished\n";
  return 0;
}
