// Multi-process PPO learner for PPO-LibTorch's discrete agent: each process runs its
// own CartPole environments, gradients are summed over Gloo, and every optimizer
// step covers m_minibatches_per_step minibatches (an inner loop).
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "gym_lite.hpp"
#include "ppo_agent_lite.hpp"

class PPO_Learner {
 public:
  PPO_Learner(c10::intrusive_ptr<c10d::ProcessGroup> pg, int rank);
  void train();

 private:
  void syncGradients();
  void collectRollout(torch::Tensor& next_obs, torch::Tensor& next_done);

  c10::intrusive_ptr<c10d::ProcessGroup> m_process_group;
  int m_rank;
  int64_t m_obs_size = 4, m_action_size = 2;
  float m_learning_rate = 2.5e-4f;
  int64_t m_num_envs = 4, m_num_steps = 128, m_num_updates = 200;
  float m_gamma = 0.99f, m_gae_lambda = 0.95f;
  int64_t m_num_minibatches = 8, m_minibatches_per_step = 2, m_update_epochs = 4;
  float m_clip_coef = 0.2f, m_ent_coef = 0.01f, m_vf_coef = 0.5f, m_max_grad_norm = 0.5f;
  int64_t m_batch_size, m_minibatch_size;

  std::shared_ptr<torch::Device> m_device;
  std::shared_ptr<Agent> m_agent;
  std::shared_ptr<torch::optim::Adam> m_optimizer;
  std::unique_ptr<gym_lite::VecEnv> m_envs;
  torch::Tensor m_obs, m_actions, m_logprobs, m_rewards, m_dones, m_values;
};

PPO_Learner::PPO_Learner(c10::intrusive_ptr<c10d::ProcessGroup> pg, int rank)
    : m_process_group(std::move(pg)), m_rank(rank) {
  m_batch_size = m_num_envs * m_num_steps;
  m_minibatch_size = m_batch_size / m_num_minibatches;
  m_device = std::make_shared<torch::Device>(torch::kCPU);
  torch::manual_seed(7);
  m_agent = std::make_shared<Agent>(m_obs_size, m_action_size, m_device);
  m_optimizer = std::make_shared<torch::optim::Adam>(m_agent->parameters(),
                                                     torch::optim::AdamOptions(m_learning_rate).eps(1e-5));
  torch::manual_seed(7 + rank);
  m_envs = std::make_unique<gym_lite::VecEnv>(m_num_envs, m_obs_size, m_action_size);
  m_obs = torch::zeros({m_num_steps, m_num_envs, m_obs_size});
  m_actions = torch::zeros({m_num_steps, m_num_envs}, torch::kLong);
  m_logprobs = torch::zeros({m_num_steps, m_num_envs});
  m_rewards = torch::zeros({m_num_steps, m_num_envs});
  m_dones = torch::zeros({m_num_steps, m_num_envs});
  m_values = torch::zeros({m_num_steps, m_num_envs});
}

// One flat bucket for all gradients: sum over processes, then average.
void PPO_Learner::syncGradients() {
  std::vector<torch::Tensor> grads;
  for (auto& p : m_agent->parameters()) grads.push_back(p.grad().view(-1));
  std::vector<torch::Tensor> bucket{torch::cat(grads)};
  m_process_group->allreduce(bucket)->wait();
  bucket[0].div_(m_process_group->getSize());
  int64_t offset = 0;
  for (auto& p : m_agent->parameters()) {
    const int64_t n = p.numel();
    p.mutable_grad().copy_(bucket[0].narrow(0, offset, n).view_as(p));
    offset += n;
  }
}

void PPO_Learner::collectRollout(torch::Tensor& next_obs, torch::Tensor& next_done) {
  torch::NoGradGuard no_grad;
  for (int64_t step = 0; step < m_num_steps; step++) {
    m_obs[step] = next_obs;
    m_dones[step] = next_done;
    auto out = m_agent->getActionAndValueDiscrete(next_obs);
    m_values[step] = out.value.flatten();
    m_actions[step] = out.action;
    m_logprobs[step] = out.logprob;
    auto [obs, reward, done] = m_envs->step(out.action);
    m_rewards[step] = reward;
    next_obs = obs;
    next_done = done;
  }
}

void PPO_Learner::train() {
  torch::Tensor next_obs = m_envs->reset();
  torch::Tensor next_done = torch::zeros({m_num_envs});

  for (int64_t update = 1; update <= m_num_updates; update++) {
    collectRollout(next_obs, next_done);

    torch::Tensor advantages = torch::zeros_like(m_rewards);
    {
      torch::NoGradGuard no_grad;
      auto next_value = m_agent->getValue(next_obs).reshape({1, -1});
      auto lastgaelam = torch::zeros({1, m_num_envs});
      for (int64_t t = m_num_steps - 1; t >= 0; t--) {
        auto nextnonterminal = t == m_num_steps - 1 ? 1.0 - next_done : 1.0 - m_dones[t + 1];
        auto nextvalues = t == m_num_steps - 1 ? next_value : m_values[t + 1];
        auto delta = m_rewards[t] + m_gamma * nextvalues * nextnonterminal - m_values[t];
        lastgaelam = delta + m_gamma * m_gae_lambda * nextnonterminal * lastgaelam;
        advantages[t] = lastgaelam[0];
      }
    }
    auto b_obs = m_obs.reshape({-1, m_obs_size});
    auto b_actions = m_actions.reshape(-1);
    auto b_logprobs = m_logprobs.reshape(-1);
    auto b_advantages = advantages.reshape(-1);
    auto b_returns = (advantages + m_values).reshape(-1);

    float last_loss = 0.f;
    for (int64_t epoch = 0; epoch < m_update_epochs; epoch++) {
      auto b_inds = torch::randperm(m_batch_size);
      for (int64_t first = 0; first < m_num_minibatches; first += m_minibatches_per_step) {
        m_optimizer->zero_grad();
        for (int64_t k = 0; k < m_minibatches_per_step; k++) {
          const int64_t start = (first + k) * m_minibatch_size;
          auto mb_inds = b_inds.index({torch::indexing::Slice(start, start + m_minibatch_size)});
          auto out = m_agent->getActionAndValueDiscrete(b_obs.index({mb_inds}), b_actions.index({mb_inds}));
          auto ratio = (out.logprob - b_logprobs.index({mb_inds})).exp();
          auto mb_adv = b_advantages.index({mb_inds});
          mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8f);
          auto pg_loss = torch::max(-mb_adv * ratio, -mb_adv * torch::clamp(ratio, 1 - m_clip_coef, 1 + m_clip_coef)).mean();
          auto v_loss = 0.5f * (out.value.view(-1) - b_returns.index({mb_inds})).pow(2).mean();
          auto loss = pg_loss - m_ent_coef * out.entropy.mean() + m_vf_coef * v_loss;
          (loss / static_cast<double>(m_minibatches_per_step)).backward();
          last_loss = loss.item<float>();
        }
        torch::nn::utils::clip_grad_norm_(m_agent->parameters(), m_max_grad_norm);
        syncGradients();
        m_optimizer->step();
      }
    }

    if (m_rank == 0) {
      std::cout << "update " << update << " loss " << last_loss << " mean reward " << m_rewards.mean().item<float>()
                << std::endl;
      if (update % 20 == 0) torch::save(m_agent, "PPO_Agent_" + std::to_string(update) + ".pt");
    }
  }
}

int main() {
  const int rank = std::atoi(std::getenv("RANK") ? std::getenv("RANK") : "0");
  const int world_size = std::atoi(std::getenv("WORLD_SIZE") ? std::getenv("WORLD_SIZE") : "1");
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/ppo_learner_store", world_size);
  auto options = c10d::ProcessGroupGloo::Options::create();
  options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size, options);
  PPO_Learner learner(pg, rank);
  learner.train();
}
