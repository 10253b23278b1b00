// PPO for discrete action spaces (CleanRL-style), with AdamW weight decay and
// minibatches grouped into optimizer steps of m_grad_accum_steps minibatches.
#include <torch/torch.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "gym_lite.hpp"
#include "ppo_agent_lite.hpp"

class PPO_Discrete {
 public:
  PPO_Discrete();
  std::array<torch::Tensor, 2> calcAdvantage(const torch::Tensor& next_obs, const torch::Tensor& next_done) const;
  void train();

  int64_t m_obs_size = 4;
  int64_t m_action_size = 2;
  float m_learning_rate = 0.0003f;
  float m_weight_decay = 0.01f;
  int64_t m_seed = 1;
  int64_t m_total_timesteps = 100000;
  int64_t m_num_envs = 4;
  int64_t m_num_steps = 512;
  bool m_anneal_lr = true;
  float m_gamma = 0.99f;
  float m_gae_lambda = 0.95f;
  int64_t m_num_minibatches = 32;
  int64_t m_grad_accum_steps = 4;
  int64_t m_update_epochs = 10;
  bool m_norm_adv = true;
  float m_clip_coef = 0.2f;
  float m_ent_coef = 0.01f;
  float m_vf_coef = 0.5f;
  float m_max_grad_norm = 0.5f;
  int64_t m_checkpoint_updates = 5;

  int64_t m_batch_size;
  int64_t m_minibatch_size;
  std::shared_ptr<torch::Device> m_device;
  std::shared_ptr<Agent> m_agent;
  std::shared_ptr<torch::optim::AdamW> m_optimizer;
  std::unique_ptr<gym_lite::VecEnv> m_envs;

  torch::Tensor m_obs, m_actions, m_logprobs, m_rewards, m_dones, m_values;
};

PPO_Discrete::PPO_Discrete() {
  m_batch_size = m_num_envs * m_num_steps;
  m_minibatch_size = m_batch_size / m_num_minibatches;
  torch::manual_seed(m_seed);

  m_device = std::make_shared<torch::Device>(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  std::cout << "Using " << *m_device << " device" << std::endl;

  m_agent = std::make_shared<Agent>(m_obs_size, m_action_size, m_device);
  m_agent->to(*m_device);

  // Decay is spread over the minibatches of one optimizer step
  m_optimizer = std::make_shared<torch::optim::AdamW>(
      m_agent->parameters(),
      torch::optim::AdamWOptions(m_learning_rate).eps(1e-5).weight_decay(m_weight_decay / m_grad_accum_steps));

  m_envs = std::make_unique<gym_lite::VecEnv>(m_num_envs, m_obs_size, m_action_size);

  m_obs = torch::zeros({m_num_steps, m_num_envs, m_obs_size}).to(*m_device);
  m_actions = torch::zeros({m_num_steps, m_num_envs}).to(*m_device);
  m_logprobs = torch::zeros({m_num_steps, m_num_envs}).to(*m_device);
  m_rewards = torch::zeros({m_num_steps, m_num_envs}).to(*m_device);
  m_dones = torch::zeros({m_num_steps, m_num_envs}).to(*m_device);
  m_values = torch::zeros({m_num_steps, m_num_envs}).to(*m_device);
}

std::array<torch::Tensor, 2> PPO_Discrete::calcAdvantage(const torch::Tensor& next_obs,
                                                         const torch::Tensor& next_done) const {
  torch::NoGradGuard no_grad;
  torch::Tensor next_value = m_agent->getValue(next_obs).reshape({1, -1});
  torch::Tensor advantages = torch::zeros_like(m_rewards);
  torch::Tensor lastgaelam = torch::zeros({1, m_num_envs}, m_rewards.options());
  for (int64_t t = m_num_steps - 1; t >= 0; t--) {
    torch::Tensor nextnonterminal, nextvalues;
    if (t == m_num_steps - 1) {
      nextnonterminal = 1.0 - next_done;
      nextvalues = next_value;
    } else {
      nextnonterminal = 1.0 - m_dones[t + 1];
      nextvalues = m_values[t + 1];
    }
    torch::Tensor delta = m_rewards[t] + m_gamma * nextvalues * nextnonterminal - m_values[t];
    lastgaelam = delta + m_gamma * m_gae_lambda * nextnonterminal * lastgaelam;
    advantages[t] = lastgaelam[0];
  }
  return {advantages + m_values, advantages};
}

void PPO_Discrete::train() {
  uint64_t global_step = 0;
  auto start_time = std::chrono::steady_clock::now();
  torch::Tensor next_obs = m_envs->reset().to(*m_device);
  torch::Tensor next_done = torch::zeros({m_num_envs}, torch::device(*m_device));
  int64_t num_updates = m_total_timesteps / m_batch_size;

  torch::Tensor v_loss, pg_loss, entropy_loss, loss;

  for (int64_t update = 1; update < num_updates + 1; update++) {
    if (m_anneal_lr) {
      double frac = 1.0 - (update - 1.0) / num_updates;
      static_cast<torch::optim::AdamWOptions&>(m_optimizer->param_groups()[0].options()).lr(frac * m_learning_rate);
    }

    // Policy rollout
    for (int64_t step = 0; step < m_num_steps; step++) {
      global_step += m_num_envs;
      m_obs[step] = next_obs;
      m_dones[step] = next_done;
      AgentOutput out;
      {
        torch::NoGradGuard no_grad;
        out = m_agent->getActionAndValueDiscrete(next_obs);
      }
      m_values[step] = out.value.flatten();
      m_actions[step] = out.action.to(torch::kFloat);
      m_logprobs[step] = out.logprob;
      auto [obs, reward, done] = m_envs->step(out.action.cpu());
      m_rewards[step] = reward.to(*m_device).view(-1);
      next_obs = obs.to(*m_device);
      next_done = done.to(*m_device);
    }

    auto [returns, advantages] = calcAdvantage(next_obs, next_done);
    torch::Tensor b_obs = m_obs.reshape({-1, m_obs_size});
    torch::Tensor b_logprobs = m_logprobs.reshape(-1);
    torch::Tensor b_actions = m_actions.reshape(-1);
    torch::Tensor b_advantages = advantages.reshape(-1);
    torch::Tensor b_returns = returns.reshape(-1);
    torch::Tensor b_values = m_values.reshape(-1);

    for (int64_t epoch = 0; epoch < m_update_epochs; epoch++) {
      torch::Tensor b_inds = torch::randperm(m_batch_size);
      m_optimizer->zero_grad();
      for (int64_t start = 0; start < m_batch_size; start += m_minibatch_size) {
        int64_t end = start + m_minibatch_size;
        int64_t mb_index = start / m_minibatch_size;
        torch::Tensor mb_inds = b_inds.index({torch::indexing::Slice(start, end)});

        auto out = m_agent->getActionAndValueDiscrete(b_obs.index({mb_inds}),
                                                      b_actions.to(torch::kLong).index({mb_inds}));
        torch::Tensor logratio = out.logprob - b_logprobs.index({mb_inds});
        torch::Tensor ratio = logratio.exp();

        torch::Tensor mb_advantages = b_advantages.index({mb_inds});
        if (m_norm_adv) {
          mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8f);
        }
        torch::Tensor pg_loss1 = -mb_advantages * ratio;
        torch::Tensor pg_loss2 = -mb_advantages * torch::clamp(ratio, 1 - m_clip_coef, 1 + m_clip_coef);
        pg_loss = torch::max(pg_loss1, pg_loss2).mean();

        torch::Tensor newvalue = out.value.view(-1);
        torch::Tensor v_loss_unclipped = (newvalue - b_returns.index({mb_inds})).pow(2);
        torch::Tensor v_clipped = b_values.index({mb_inds}) +
                                  torch::clamp(newvalue - b_values.index({mb_inds}), -m_clip_coef, m_clip_coef);
        torch::Tensor v_loss_clipped = (v_clipped - b_returns.index({mb_inds})).pow(2);
        v_loss = 0.5f * torch::max(v_loss_unclipped, v_loss_clipped).mean();
        entropy_loss = out.entropy.mean();

        loss = pg_loss - m_ent_coef * entropy_loss + v_loss * m_vf_coef;
        (loss / m_grad_accum_steps).backward();

        if ((mb_index + 1) % m_grad_accum_steps == 0 || end >= m_batch_size) {
          torch::nn::utils::clip_grad_norm_(m_agent->parameters(), m_max_grad_norm);
          m_optimizer->step();
          m_optimizer->zero_grad();
        }
      }
    }

    auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_time);
    std::cout << "| update " << update << " | global_step " << global_step << " | loss " << loss.item<float>()
              << " | pg_loss " << pg_loss.item<float>() << " | v_loss " << v_loss.item<float>() << " | "
              << elapsed.count() << " ms |" << std::endl;

    if (update % m_checkpoint_updates == 0) {
      std::filesystem::create_directories("./ModelCheckpoints/");
      torch::save(m_agent, "./ModelCheckpoints/PPO_Agent_" + std::to_string(global_step) + "_steps.pt");
      torch::save(*m_optimizer, "./ModelCheckpoints/PPO_Optimizer_" + std::to_string(global_step) + "_steps.pt");
    }
  }
}

int main() {
  PPO_Discrete ppo;
  ppo.train();
}
