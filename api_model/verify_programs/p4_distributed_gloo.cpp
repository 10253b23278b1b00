// Distributed data-parallel style gradient averaging with c10d + Gloo.
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <cstdlib>
#include <iostream>
#include <string>

void train_distributed() {
  const int rank = std::atoi(std::getenv("RANK"));
  const int world = std::atoi(std::getenv("WORLD_SIZE"));
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/c10d_store", world);
  auto opts = c10d::ProcessGroupGloo::Options::create();
  opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world, opts);
  c10::intrusive_ptr<c10d::ProcessGroup> base = pg;

  auto model = torch::nn::Linear(8, 2);
  torch::optim::SGD opt(model->parameters(), 0.1);
  for (int step = 0; step < 4; ++step) {
    opt.zero_grad();
    auto loss = torch::nn::functional::mse_loss(model(torch::randn({16, 8})), torch::randn({16, 2}));
    loss.backward();
    for (auto& p : model->parameters()) {
      std::vector<torch::Tensor> ts{p.grad()};
      pg->allreduce(ts)->wait();
      p.grad().div_(pg->getSize());
    }
    for (auto& p : model->parameters()) {
      std::vector<torch::Tensor> ts{p.mutable_grad()};
      c10d::AllreduceOptions ar;
      ar.reduceOp = c10d::ReduceOp::AVG;
      auto work = base->allreduce(ts, ar);
      work->wait();
    }
    opt.step();
  }
  std::vector<torch::Tensor> all = model->parameters();
  base->broadcast(all)->wait();
  base->barrier()->wait();
  std::cout << "rank " << pg->getRank() << "/" << base->getSize() << '\n';
}

int main() { train_distributed(); }
