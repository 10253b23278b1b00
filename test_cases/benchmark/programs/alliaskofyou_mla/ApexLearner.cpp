// Several DQN learner processes (TorchProject2's DQN update) sharing one online
// network over Gloo: each learner samples its own replay shard, accumulates
// `accumSteps` batches, averages gradients with the other learners and steps.
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <vector>

#include "mla_lite.hpp"

struct QNetImpl : torch::nn::Module {
  QNetImpl(int64_t state_size, int64_t num_actions) {
    l1 = register_module("l1", torch::nn::Linear(state_size, 256));
    l2 = register_module("l2", torch::nn::Linear(256, 256));
    l3 = register_module("l3", torch::nn::Linear(256, num_actions));
  }
  at::Tensor forward(at::Tensor x) { return l3(torch::relu(l2(torch::relu(l1(x))))); }
  torch::nn::Linear l1{nullptr}, l2{nullptr}, l3{nullptr};
};
TORCH_MODULE(QNet);

class ApexLearner {
 public:
  ApexLearner(c10::intrusive_ptr<c10d::ProcessGroup> pg, ReplayBuffer& rb, QNet qNet, QNet qNetTarget,
              torch::optim::Optimizer& opt, XPA& xpa, int64_t batch_size, float gamma, float delta, int accumSteps)
      : pg(std::move(pg)), worldSize(this->pg->getSize()), rb(rb), qNet(qNet), qNetTarget(qNetTarget), opt(opt),
        xpa(xpa), batch_size(batch_size), gamma(gamma), delta(delta), accumSteps(accumSteps) {
    update_params(0);
    qNetTarget->eval();
  }

  void update() {
    RBSample rs = rb.sample(batch_size);
    at::Tensor err = calculate_err(rs);
    at::Tensor loss = err.square().mean() / accumSteps;
    loss.backward();

    if (++accumCount < accumSteps) return;
    accumCount = 0;

    allreduceMean();
    for (auto& p : qNet->parameters()) {
      if (p.grad().defined()) p.mutable_grad() /= worldSize;
    }
    opt.step();
    opt.zero_grad();
    update_params(delta);
  }

 private:
  // Averages the online network's gradients over the learners.
  void allreduceMean() {
    for (auto& p : qNet->parameters()) {
      if (!p.grad().defined()) continue;
      std::vector<at::Tensor> t{p.grad()};
      pg->allreduce(t)->wait();
      p.grad().div_(worldSize);
    }
  }

  at::Tensor calculate_err(const RBSample& rs) {
    at::Tensor outQT, outQ;
    {
      at::NoGradGuard no_grad;
      outQT = qNetTarget->forward(rs.nStates);
      outQ = qNet->forward(rs.nStates);
    }
    at::Tensor targets = rs.rewards + gamma * (xpa.prob(outQ) * outQT).sum(1) * rs.terminal;
    at::Tensor out = qNet->forward(rs.states).index({at::arange(batch_size), rs.aActions});
    return targets - out;
  }

  void update_params(float d) {
    at::NoGradGuard no_grad;
    auto p = qNet->parameters();
    auto pT = qNetTarget->parameters();
    for (size_t i = 0; i < pT.size(); i++) pT[i].copy_(d * pT[i] + (1 - d) * p[i]);
  }

  c10::intrusive_ptr<c10d::ProcessGroup> pg;
  int worldSize;
  ReplayBuffer& rb;
  QNet qNet, qNetTarget;
  torch::optim::Optimizer& opt;
  XPA& xpa;
  int64_t batch_size;
  float gamma, delta;
  int accumSteps, accumCount = 0;
};

int main() {
  const int rank = std::atoi(std::getenv("RANK") ? std::getenv("RANK") : "0");
  const int world = std::atoi(std::getenv("WORLD_SIZE") ? std::getenv("WORLD_SIZE") : "1");
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/apex_store", world);
  auto options = c10d::ProcessGroupGloo::Options::create();
  options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world, options);

  const int64_t state_size = 32, num_actions = 4;
  torch::manual_seed(0);
  QNet online(state_size, num_actions), target(state_size, num_actions);
  torch::optim::SGD opt(online->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  ReplayBuffer rb(100000, state_size, num_actions);
  Boltzmann xpa(1.0f);
  ApexLearner learner(pg, rb, online, target, opt, xpa, 128, 0.99f, 0.995f, 4);
  for (int step = 0; step < 400000; ++step) {
    learner.update();
    if (rank == 0 && step % 10000 == 0) std::cout << "learner step " << step << std::endl;
  }
}
