// DQN with an intrinsic curiosity module (TorchProject2's DQNA): the Q-network and
// the ICM (feature, inverse and forward models) have their own optimizers and
// schedules. Each update() call is one replay batch; both networks step every
// `accumSteps` calls.
#include <torch/torch.h>

#include <iostream>

#include "mla_lite.hpp"

struct ICMReturn {
  at::Tensor aPred, sNext, sNextPred;
};

struct ICMNetImpl : torch::nn::Module {
  ICMNetImpl(int64_t state_size, int64_t num_actions, int64_t s_emb, int64_t a_emb) {
    fnet = register_module("fnet", torch::nn::Sequential(torch::nn::Linear(state_size, 128), torch::nn::ReLU(),
                                                         torch::nn::Linear(128, s_emb)));
    anet = register_module("anet", torch::nn::Sequential(torch::nn::Linear(2 * s_emb, 128), torch::nn::ReLU(),
                                                         torch::nn::Linear(128, num_actions)));
    emb_a = register_module("emb_a", torch::nn::Embedding(num_actions, a_emb));
    snet = register_module("snet", torch::nn::Sequential(torch::nn::Linear(s_emb + a_emb, 128), torch::nn::ReLU(),
                                                         torch::nn::Linear(128, s_emb)));
  }
  ICMReturn forward(const RBSample& smpl) {
    auto s = fnet->forward(smpl.states);
    auto s_next = fnet->forward(smpl.nStates);
    auto a_pred = anet->forward(torch::cat({s, s_next}, 1));
    auto s_next_pred = snet->forward(torch::cat({s, emb_a->forward(smpl.aActions)}, 1));
    return {a_pred, s_next, s_next_pred};
  }
  torch::nn::Sequential fnet{nullptr}, anet{nullptr}, snet{nullptr};
  torch::nn::Embedding emb_a{nullptr};
};
TORCH_MODULE(ICMNet);

struct QNetImpl : torch::nn::Module {
  QNetImpl(int64_t state_size, int64_t num_actions)
      : l1(register_module("l1", torch::nn::Linear(state_size, 128))),
        l2(register_module("l2", torch::nn::Linear(128, num_actions))) {}
  at::Tensor forward(at::Tensor x) { return l2(torch::relu(l1(x))); }
  torch::nn::Linear l1, l2;
};
TORCH_MODULE(QNet);

class DQNA {
 public:
  DQNA(ReplayBuffer& rb, int64_t batch_size, QNet qNet, QNet qNetTarget, torch::optim::Optimizer& opt1,
       torch::optim::LRScheduler& lrs1, torch::optim::Optimizer& opt2, torch::optim::LRScheduler& lrs2, XPA& xpa,
       float gamma, float delta, int pUpdateWait, ICMNet iCMNet, float beta, float ro, int accumSteps)
      : rb(rb), batch_size(batch_size), qNet(qNet), qNetTarget(qNetTarget), opt(opt1), lrs(lrs1), opt2(opt2),
        lrs2(lrs2), xpa(xpa), gamma(gamma), delta(delta), pUpdateWait(pUpdateWait), iCMNet(iCMNet), beta(beta),
        ro(ro), accumSteps(accumSteps) {}

  void update() {
    RBSample rs = rb.sample(batch_size);

    // curiosity: inverse model predicts the action, forward model the next features
    ICMReturn out = iCMNet->forward(rs);
    at::Tensor a_pred = out.aPred.softmax(1).index({at::arange(batch_size), rs.aActions});
    at::Tensor loss_inv = -a_pred.log().mean();
    at::Tensor loss_fw = 0.5 * (out.sNext - out.sNextPred).square().sum(1).sqrt();

    // normalized intrinsic reward, annealed over the first 30000 steps
    at::Tensor r_int = loss_fw.detach();
    r_int = (r_int - r_int.mean()) / (r_int.std() + 1e-6);
    float lrr = std::max(0.0f, 1.0f - rb.update_steps / 30000.0f);
    rs.rewards = rs.rewards + ro * lrr * r_int;

    at::Tensor err = calculate_err(rs);
    at::Tensor loss = err.square().mean();
    at::Tensor loss_icm = (1 - beta) * loss_inv + beta * loss_fw.mean();

    (loss / accumSteps).backward();
    (loss_icm / accumSteps).backward();

    if (++accumCount == accumSteps) {
      opt.step();
      lrs.step();
      opt.zero_grad();
      opt2.step();
      lrs2.step();
      accumCount = 0;

      if (pUpdateTimes == pUpdateWait) {
        update_params(delta);
        pUpdateTimes = 0;
      } else {
        pUpdateTimes++;
      }
    }

    if (rb.update_steps % 100 == 0) {
      std::cout << "APred: " << a_pred.detach().mean().item<float>() << " Fw-Loss: " << loss_fw.mean().item<float>()
                << std::endl;
    }
  }

 private:
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
    auto p = qNet->parameters();
    auto pT = qNetTarget->parameters();
    for (size_t i = 0; i < pT.size(); i++) pT[i].set_data(d * pT[i] + (1 - d) * p[i]);
  }

  ReplayBuffer& rb;
  int64_t batch_size;
  QNet qNet, qNetTarget;
  torch::optim::Optimizer& opt;
  torch::optim::LRScheduler& lrs;
  torch::optim::Optimizer& opt2;
  torch::optim::LRScheduler& lrs2;
  XPA& xpa;
  float gamma, delta;
  int pUpdateWait, pUpdateTimes = 0;
  ICMNet iCMNet;
  float beta, ro;
  int accumSteps, accumCount = 0;
};

int main() {
  const int64_t state_size = 24, num_actions = 9;
  QNet online(state_size, num_actions), target(state_size, num_actions);
  ICMNet icm(state_size, num_actions, 64, 16);
  torch::optim::Adam opt1(online->parameters(), torch::optim::AdamOptions(1e-4));
  torch::optim::Adam opt2(icm->parameters(), torch::optim::AdamOptions(1e-3));
  LinearLRS lrs1(opt1, 1000, 1.0, 0.1, 300000);
  LinearLRS lrs2(opt2, 1000, 1.0, 0.1, 300000);
  ReplayBuffer rb(100000, state_size, num_actions);
  Boltzmann xpa(1.0f);
  DQNA agent(rb, 64, online, target, opt1, lrs1, opt2, lrs2, xpa, 0.99f, 0.99f, 10, icm, 0.2f, 0.1f, 4);
  for (int step = 0; step < 300000; ++step) {
    rb.update_steps++;
    agent.update();
  }
}
