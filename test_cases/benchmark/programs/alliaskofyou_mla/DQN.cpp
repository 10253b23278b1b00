// Expected-SARSA DQN agent of TorchProject2 with a Polyak-averaged target network.
// update() is called once per environment step; each call contributes one replay
// batch, and the online network steps every `accumSteps` calls.
#include <torch/torch.h>

#include <iostream>

#include "mla_lite.hpp"

class DQN {
 public:
  DQN(ReplayBuffer& rb, int64_t batch_size, torch::nn::AnyModule qNet, torch::nn::AnyModule qNetTarget,
      torch::optim::Optimizer& opt, torch::optim::LRScheduler& lrs, XPA& xpa, float gamma, float delta,
      int pUpdateWait, int accumSteps)
      : rb(rb), batch_size(batch_size), qNet(qNet), qNetTarget(qNetTarget), opt(opt), lrs(lrs), xpa(xpa),
        gamma(gamma), delta(delta), pUpdateWait(pUpdateWait), accumSteps(accumSteps) {
    // target starts as a copy of the online network and stays in eval mode
    update_params(0);
    qNetTarget.ptr()->eval();
  }

  void update();
  at::Tensor nextAction();

 protected:
  at::Tensor calculate_err(const RBSample& rs);
  void update_params(float delta);

  ReplayBuffer& rb;
  int64_t batch_size;
  torch::nn::AnyModule qNet, qNetTarget;
  torch::optim::Optimizer& opt;
  torch::optim::LRScheduler& lrs;
  XPA& xpa;
  float gamma, delta;
  int pUpdateWait;
  int pUpdateTimes = 0;
  int accumSteps;
  int accumCount = 0;
  float bestReward = -1000;
};

void DQN::update() {
  RBSample rs = rb.sample(batch_size);

  at::Tensor err = calculate_err(rs);
  at::Tensor loss = err.square().mean() / accumSteps;
  loss.backward();

  if (++accumCount == accumSteps) {
    opt.step();
    opt.zero_grad();
    accumCount = 0;
  }
  lrs.step();

  // move the target network towards the online one
  if (pUpdateTimes == pUpdateWait) {
    update_params(delta);
    pUpdateTimes = 0;
  } else {
    pUpdateTimes++;
  }
}

at::Tensor DQN::calculate_err(const RBSample& rs) {
  at::Tensor outQT, outQ;
  {
    at::NoGradGuard no_grad;
    outQT = qNetTarget.forward(rs.nStates);
    qNet.ptr()->eval();
    outQ = qNet.forward(rs.nStates);
  }
  // expected value of the next state under the exploration policy
  at::Tensor probA = xpa.prob(outQ);
  at::Tensor outQTA = (probA * outQT).sum(1);
  at::Tensor targets = rs.rewards + gamma * outQTA * rs.terminal;

  qNet.ptr()->train();
  at::Tensor out = qNet.forward(rs.states);
  out = out.index({at::arange(batch_size), rs.aActions});
  return targets - out;
}

at::Tensor DQN::nextAction() {
  at::NoGradGuard no_grad;
  qNet.ptr()->eval();
  at::Tensor out = qNet.forward(rb.last_state());
  at::Tensor nAction = xpa.nextAction(out);
  if (rb.update_steps >= 5000) xpa.update();
  float r = rb.get_acc_reward(5000);
  if (rb.update_steps >= 5000 && r > bestReward) {
    std::cout << "New Best Reward: " << r << std::endl;
    torch::save(qNet.ptr(), "qNet.pt");
    bestReward = r;
  }
  return nAction;
}

void DQN::update_params(float delta) {
  auto p = qNet.ptr()->parameters();
  auto pT = qNetTarget.ptr()->parameters();
  for (size_t i = 0; i < pT.size(); i++) {
    pT[i].set_data(delta * pT[i] + (1 - delta) * p[i]);
  }
  auto b = qNet.ptr()->buffers();
  auto bT = qNetTarget.ptr()->buffers();
  for (size_t i = 0; i < bT.size(); i++) {
    bT[i].set_data(delta * bT[i] + (1 - delta) * b[i]);
  }
}

struct QNetBasicImpl : torch::nn::Module {
  QNetBasicImpl(int64_t state_size, int64_t num_actions) {
    body = register_module("body", torch::nn::Sequential(torch::nn::Linear(state_size, 128), torch::nn::ReLU(),
                                                         torch::nn::Linear(128, 128), torch::nn::ReLU(),
                                                         torch::nn::Linear(128, num_actions)));
  }
  at::Tensor forward(at::Tensor x) { return body->forward(x); }
  torch::nn::Sequential body{nullptr};
};
TORCH_MODULE(QNetBasic);

int main() {
  const int64_t state_size = 32, num_actions = 3;
  QNetBasic online(state_size, num_actions);
  QNetBasic target(state_size, num_actions);
  torch::optim::Adam opt(online->parameters(), torch::optim::AdamOptions(1e-4));
  LinearLRS lrs(opt, 1000, 1.0, 0.1, 500000);
  ReplayBuffer rb(100000, state_size, num_actions);
  Boltzmann xpa(1.0f);
  DQN agent(rb, 64, torch::nn::AnyModule(online), torch::nn::AnyModule(target), opt, lrs, xpa, 0.99f, 0.995f, 0, 4);
  for (int step = 0; step < 500000; ++step) {
    agent.nextAction();
    rb.update_steps++;
    agent.update();
  }
}
