// Prioritized-replay DQN (TorchProject2's PDQN). Each update() call draws one
// prioritized batch; `accumSteps` calls make one optimizer step, after which the
// schedule advances and, every pUpdateWait steps, the target net is blended in.
#include <torch/torch.h>

#include <iostream>

#include "mla_lite.hpp"

struct QNetImpl : torch::nn::Module {
  QNetImpl(int64_t state_size, int64_t num_actions) {
    fc1 = register_module("fc1", torch::nn::Linear(state_size, 256));
    fc2 = register_module("fc2", torch::nn::Linear(256, 256));
    out = register_module("out", torch::nn::Linear(256, num_actions));
  }
  at::Tensor forward(at::Tensor x) { return out(torch::relu(fc2(torch::relu(fc1(x))))); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr}, out{nullptr};
};
TORCH_MODULE(QNet);

class PDQN {
 public:
  PDQN(ReplayBuffer& rb, int64_t batch_size, QNet qNet, QNet qNetTarget, torch::optim::Optimizer& opt,
       torch::optim::LRScheduler& lrs, XPA& xpa, float gamma, float delta, int pUpdateWait, PESampler& pes,
       int accumSteps)
      : rb(rb), batch_size(batch_size), qNet(qNet), qNetTarget(qNetTarget), opt(opt), lrs(lrs), xpa(xpa),
        gamma(gamma), delta(delta), pUpdateWait(pUpdateWait), pes(pes), accumSteps(accumSteps) {
    update_params(0);
    qNetTarget->eval();
  }

  void update() {
    at::Tensor indexes = pes.sample(batch_size);
    RBSample rs = rb.get_sample(indexes);
    at::Tensor weights = pes.get_weights(indexes);

    if (accumCount == 0) {
      opt.zero_grad();
    }

    at::Tensor err = calculate_err(rs);
    pes.update(indexes, err.detach());

    // importance-weighted squared TD error, this batch's share of the step
    at::Tensor loss = (weights * err.square()).sum();
    loss.mul(1.0 / accumSteps).backward();
    lossLog += loss.item<float>();

    accumCount += 1;
    if (accumCount < accumSteps) return;

    opt.step();
    lrs.step();
    accumCount = 0;
    if (++stepsSinceSync >= pUpdateWait) {
      update_params(delta);
      stepsSinceSync = 0;
    }
    if (++optimizerSteps % 1000 == 0) {
      std::cout << "step " << optimizerSteps << " loss " << lossLog / (1000.0 * accumSteps) << std::endl;
      lossLog = 0.0;
    }
  }

 private:
  at::Tensor calculate_err(const RBSample& rs) {
    at::Tensor outQT, outQ;
    {
      at::NoGradGuard no_grad;
      outQT = qNetTarget->forward(rs.nStates);
      qNet->eval();
      outQ = qNet->forward(rs.nStates);
    }
    at::Tensor outQTA = (xpa.prob(outQ) * outQT).sum(1);
    at::Tensor targets = rs.rewards + gamma * outQTA * rs.terminal;
    qNet->train();
    at::Tensor out = qNet->forward(rs.states).index({at::arange(batch_size), rs.aActions});
    return targets - out;
  }

  void update_params(float d) {
    at::NoGradGuard no_grad;
    auto p = qNet->parameters();
    auto pT = qNetTarget->parameters();
    for (size_t i = 0; i < pT.size(); i++) pT[i].copy_(d * pT[i] + (1 - d) * p[i]);
  }

  ReplayBuffer& rb;
  int64_t batch_size;
  QNet qNet, qNetTarget;
  torch::optim::Optimizer& opt;
  torch::optim::LRScheduler& lrs;
  XPA& xpa;
  float gamma, delta;
  int pUpdateWait;
  PESampler& pes;
  int accumSteps;
  int accumCount = 0;
  int stepsSinceSync = 0;
  long optimizerSteps = 0;
  double lossLog = 0.0;
};

int main() {
  const int64_t state_size = 48, num_actions = 5, capacity = 200000;
  QNet online(state_size, num_actions), target(state_size, num_actions);
  torch::optim::RMSprop opt(online->parameters(), torch::optim::RMSpropOptions(2.5e-4).alpha(0.95).eps(0.01));
  LinearLRS lrs(opt, 500, 1.0, 0.05, 250000);
  ReplayBuffer rb(capacity, state_size, num_actions);
  PESampler pes(capacity);
  Boltzmann xpa(0.5f);
  PDQN agent(rb, 32, online, target, opt, lrs, xpa, 0.99f, 0.99f, 4, pes, 8);
  for (int step = 0; step < 2000000; ++step) agent.update();
}
