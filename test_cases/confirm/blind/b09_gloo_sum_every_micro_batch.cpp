// TRUTH: buggy: SUM all-reduce of every gradient after every backward() (N=4), division by the world size only once at the boundary; expect a numerical effect: already-summed earlier micro-batches are summed across ranks again, micro-batch j counted W^(N-j) times (and N all-reduces per step instead of 1).
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <string>

int main() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/gl_rendezvous", world_size);
  auto options = c10d::ProcessGroupGloo::Options::create();
  options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size, options);

  torch::manual_seed(0);
  torch::nn::Sequential model(torch::nn::Linear(8, 16), torch::nn::ReLU(), torch::nn::Linear(16, 4));
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.05));

  const int accum_steps = 4;
  torch::manual_seed(100 + rank);
  for (int i = 0; i < 400; ++i) {
    auto x = torch::randn({16, 8});
    auto y = torch::randn({16, 4});
    auto loss = torch::mse_loss(model->forward(x), y) / accum_steps;
    loss.backward();

    for (auto& p : model->parameters()) {
      std::vector<torch::Tensor> bufs{p.grad()};
      pg->allreduce(bufs)->wait();
    }

    if ((i + 1) % accum_steps == 0) {
      for (auto& p : model->parameters()) p.grad().div_(world_size);
      optimizer.step();
      optimizer.zero_grad();
    }
    if (rank == 0 && i % 100 == 0) std::cout << "iter " << i << " loss " << loss.item<float>() << "\n";
  }
  return 0;
}
