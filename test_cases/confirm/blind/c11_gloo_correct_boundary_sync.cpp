// TRUTH: correct: loss * (1.0 / accum_steps), gradients SUM-all-reduced and divided by the world size once in the boundary branch before step(), then zero_grad; no numerical effect expected (momentum SGD matches the large-batch reference over N x W micro-batches).
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <string>

namespace {

c10::intrusive_ptr<c10d::ProcessGroupGloo> init_group(int rank, int world) {
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/train_sync_file", world);
  auto opts = c10d::ProcessGroupGloo::Options::create();
  opts->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("localhost"));
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world, opts);
}

}  // namespace

int main() {
  const int rank = std::stoi(std::getenv("RANK"));
  const int world = std::stoi(std::getenv("WORLD_SIZE"));
  auto pg = init_group(rank, world);

  torch::nn::Sequential net(torch::nn::Linear(16, 32), torch::nn::SiLU(), torch::nn::Linear(32, 1));
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(1e-2).momentum(0.9).weight_decay(1e-4));

  constexpr int accum_steps = 4;
  opt.zero_grad();
  for (int it = 0; it < 1000; ++it) {
    auto x = torch::randn({32, 16});
    auto y = x.pow(2).sum(1, true);
    auto loss = torch::mse_loss(net->forward(x), y);
    (loss * (1.0 / accum_steps)).backward();

    const bool sync_now = (it + 1) % accum_steps == 0;
    if (sync_now) {
      for (auto& p : net->parameters()) {
        std::vector<torch::Tensor> t{p.mutable_grad()};
        pg->allreduce(t)->wait();
        p.mutable_grad().div_(world);
      }
      opt.step();
      opt.zero_grad();
    }
    if (rank == 0 && it % 200 == 0) std::cout << it << " " << loss.item<double>() << std::endl;
  }
}
