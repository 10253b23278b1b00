// Distributed via ProcessGroup base pointer, TCPStore/PrefixStore, coalesced allreduce.
#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <cstdlib>
#include <memory>

void sync_grads(const c10::intrusive_ptr<c10d::ProcessGroup>& pg, torch::nn::Module& m) {
  std::vector<torch::Tensor> grads;
  for (auto& p : m.parameters()) grads.push_back(p.grad());
  c10d::AllreduceCoalescedOptions o;
  o.reduceOp = c10d::ReduceOp::SUM;
  pg->allreduce_coalesced(grads, o)->wait();
  for (auto& g : grads) g.div_(pg->getSize());
}

void train_ddp() {
  const char* ws = std::getenv("WORLD_SIZE");
  int world = ws ? std::atoi(ws) : 1;
  c10d::TCPStoreOptions sopts;
  sopts.port = 29500;
  sopts.isServer = true;
  sopts.numWorkers = world;
  auto tcp = c10::make_intrusive<c10d::TCPStore>("127.0.0.1", sopts);
  auto store = c10::make_intrusive<c10d::PrefixStore>("pg0", tcp);
  auto gopts = c10d::ProcessGroupGloo::Options::create();
  gopts->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  c10::intrusive_ptr<c10d::ProcessGroup> pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, 0, world, gopts);
  auto pg2 = std::make_shared<c10d::ProcessGroupGloo>(store, 0, world, c10d::ProcessGroupGloo::Options::create());
  auto net = std::make_shared<torch::nn::LinearImpl>(4, 4);
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.1));
  for (int i = 0; i < 3; ++i) {
    auto loss = net->forward(torch::randn({2, 4})).pow(2).mean();
    loss.backward();
    sync_grads(pg, *net);
    std::vector<torch::Tensor> t{loss.detach()};
    c10d::AllreduceOptions ao;
    ao.reduceOp = c10d::ReduceOp::MAX;
    pg2->allreduce(t, ao)->wait();
    opt.step();
    net->zero_grad();
  }
  std::vector<std::vector<torch::Tensor>> out(1);
  std::vector<torch::Tensor> in{torch::ones({2})};
  pg->allgather(out, in)->wait();
}

int main() { train_ddp(); }
