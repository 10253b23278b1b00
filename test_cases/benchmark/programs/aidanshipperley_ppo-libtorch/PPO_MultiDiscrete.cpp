// PPO for multi-discrete action spaces. Minibatch gradients are summed in .grad and
// averaged once per optimizer step; a countdown decides when to step.
#include <torch/torch.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "gym_lite.hpp"
#include "ppo_agent_lite.hpp"

class PPO_MultiDiscrete {
 public:
  PPO_MultiDiscrete();
  void train();
  void applyAveragedGradients(int64_t minibatches_in_step);
  void printPPOResults(int64_t update, uint64_t global_step, const torch::Tensor& loss, const torch::Tensor& pg_loss,
                       const torch::Tensor& v_loss, const torch::Tensor& entropy_loss);

  int64_t m_obs_size = 12;
  std::vector<int64_t> m_action_space{3, 3, 2};
  int64_t m_action_space_sum = 8;
  float m_learning_rate = 0.00025f;
  int64_t m_total_timesteps = 500000;
  int64_t m_num_envs = 8;
  int64_t m_num_steps = 256;
  bool m_anneal_lr = true;
  float m_gamma = 0.99f;
  float m_gae_lambda = 0.95f;
  int64_t m_num_minibatches = 16;
  int64_t m_minibatches_per_step = 4;
  int64_t m_update_epochs = 4;
  float m_clip_coef = 0.1f;
  float m_ent_coef = 0.01f;
  float m_vf_coef = 0.5f;
  float m_max_grad_norm = 0.5f;

  int64_t m_batch_size;
  int64_t m_minibatch_size;
  std::shared_ptr<torch::Device> m_device;
  std::shared_ptr<Agent> m_agent;
  std::shared_ptr<torch::optim::AdamW> m_optimizer;
  std::unique_ptr<gym_lite::VecEnv> m_envs;
  std::unique_ptr<CircularBuffer> m_episode_stats;
  torch::Tensor m_obs, m_actions, m_logprobs, m_rewards, m_dones, m_values;
};

PPO_MultiDiscrete::PPO_MultiDiscrete() {
  m_batch_size = m_num_envs * m_num_steps;
  m_minibatch_size = m_batch_size / m_num_minibatches;
  m_device = std::make_shared<torch::Device>(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  m_agent = std::make_shared<Agent>(m_obs_size, m_action_space_sum, m_device);
  m_agent->to(*m_device);
  m_optimizer = std::make_shared<torch::optim::AdamW>(m_agent->parameters(),
                                                      torch::optim::AdamWOptions(m_learning_rate).eps(1e-5f));
  m_envs = std::make_unique<gym_lite::VecEnv>(m_num_envs, m_obs_size, static_cast<int64_t>(m_action_space.size()));
  m_episode_stats = std::make_unique<CircularBuffer>(100);

  const int64_t nvec = static_cast<int64_t>(m_action_space.size());
  m_obs = torch::zeros({m_num_steps, m_num_envs, m_obs_size}).to(*m_device);
  m_actions = torch::zeros({m_num_steps, m_num_envs, nvec}, torch::kLong).to(*m_device);
  m_logprobs = torch::zeros({m_num_steps, m_num_envs}).to(*m_device);
  m_rewards = torch::zeros({m_num_steps, m_num_envs}).to(*m_device);
  m_dones = torch::zeros({m_num_steps, m_num_envs}).to(*m_device);
  m_values = torch::zeros({m_num_steps, m_num_envs}).to(*m_device);
}

// .grad holds the sum of `minibatches_in_step` minibatch gradients: turn it into
// their mean, clip the mean, and step.
void PPO_MultiDiscrete::applyAveragedGradients(int64_t minibatches_in_step) {
  for (auto& param : m_agent->parameters()) {
    if (param.grad().defined()) {
      param.mutable_grad().div_(static_cast<double>(minibatches_in_step));
    }
  }
  torch::nn::utils::clip_grad_norm_(m_agent->parameters(), m_max_grad_norm);
  m_optimizer->step();
  m_optimizer->zero_grad();
}

void PPO_MultiDiscrete::printPPOResults(int64_t update, uint64_t global_step, const torch::Tensor& loss,
                                        const torch::Tensor& pg_loss, const torch::Tensor& v_loss,
                                        const torch::Tensor& entropy_loss) {
  auto lr = static_cast<torch::optim::AdamWOptions&>(m_optimizer->param_groups()[0].options()).lr();
  std::cout << "| update " << update << " | steps " << global_step << " | lr " << lr << " | loss "
            << loss.item<float>() << " | pg " << pg_loss.item<float>() << " | v " << v_loss.item<float>()
            << " | ent " << entropy_loss.item<float>() << " | ep_rew " << m_episode_stats->mean() << " |\n";
}

void PPO_MultiDiscrete::train() {
  uint64_t global_step = 0;
  torch::Tensor next_obs = m_envs->reset().to(*m_device);
  torch::Tensor next_done = torch::zeros({m_num_envs}, torch::device(*m_device));
  const int64_t num_updates = m_total_timesteps / m_batch_size;
  torch::Tensor v_loss, pg_loss, entropy_loss, loss;

  for (int64_t update = 1; update <= num_updates; update++) {
    if (m_anneal_lr) {
      double frac = 1.0 - (update - 1.0) / num_updates;
      static_cast<torch::optim::AdamWOptions&>(m_optimizer->param_groups()[0].options()).lr() = frac * m_learning_rate;
    }

    for (int64_t step = 0; step < m_num_steps; step++) {
      global_step += m_num_envs;
      m_obs[step] = next_obs;
      m_dones[step] = next_done;
      AgentOutput out;
      {
        torch::NoGradGuard no_grad;
        out = m_agent->getActionAndValueMultiDiscrete(next_obs, m_action_space);
      }
      m_values[step] = out.value.flatten();
      m_actions[step] = out.action;
      m_logprobs[step] = out.logprob;
      auto [obs, reward, done] = m_envs->step(out.action.cpu());
      m_rewards[step] = reward.to(*m_device);
      m_episode_stats->add(reward.mean().item<float>());
      next_obs = obs.to(*m_device);
      next_done = done.to(*m_device);
    }

    torch::Tensor advantages = torch::zeros_like(m_rewards);
    {
      torch::NoGradGuard no_grad;
      auto next_value = m_agent->getValue(next_obs).reshape({1, -1});
      auto lastgaelam = torch::zeros({1, m_num_envs}, m_rewards.options());
      for (int64_t t = m_num_steps - 1; t >= 0; t--) {
        auto nextnonterminal = t == m_num_steps - 1 ? 1.0 - next_done : 1.0 - m_dones[t + 1];
        auto nextvalues = t == m_num_steps - 1 ? next_value : m_values[t + 1];
        auto delta = m_rewards[t] + m_gamma * nextvalues * nextnonterminal - m_values[t];
        lastgaelam = delta + m_gamma * m_gae_lambda * nextnonterminal * lastgaelam;
        advantages[t] = lastgaelam[0];
      }
    }
    torch::Tensor returns = advantages + m_values;

    torch::Tensor b_obs = m_obs.reshape({-1, m_obs_size});
    torch::Tensor b_logprobs = m_logprobs.reshape(-1);
    torch::Tensor b_actions = m_actions.reshape({-1, static_cast<int64_t>(m_action_space.size())});
    torch::Tensor b_advantages = advantages.reshape(-1);
    torch::Tensor b_returns = returns.reshape(-1);

    m_optimizer->zero_grad();
    int64_t remaining = m_minibatches_per_step;
    for (int64_t epoch = 0; epoch < m_update_epochs; epoch++) {
      torch::Tensor b_inds = torch::randperm(m_batch_size);
      for (int64_t start = 0; start < m_batch_size; start += m_minibatch_size) {
        torch::Tensor mb_inds = b_inds.index({torch::indexing::Slice(start, start + m_minibatch_size)});
        auto out = m_agent->getActionAndValueMultiDiscrete(b_obs.index({mb_inds}), m_action_space,
                                                           b_actions.index({mb_inds}));
        torch::Tensor ratio = (out.logprob - b_logprobs.index({mb_inds})).exp();
        torch::Tensor mb_adv = b_advantages.index({mb_inds});
        mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8f);
        pg_loss = torch::max(-mb_adv * ratio, -mb_adv * torch::clamp(ratio, 1 - m_clip_coef, 1 + m_clip_coef)).mean();
        v_loss = 0.5f * (out.value.view(-1) - b_returns.index({mb_inds})).pow(2).mean();
        entropy_loss = out.entropy.mean();
        loss = pg_loss - m_ent_coef * entropy_loss + v_loss * m_vf_coef;
        loss.backward();

        if (--remaining == 0) {
          applyAveragedGradients(m_minibatches_per_step);
          remaining = m_minibatches_per_step;
        }
      }
    }
    if (remaining != m_minibatches_per_step) {
      applyAveragedGradients(m_minibatches_per_step - remaining);
    }

    printPPOResults(update, global_step, loss, pg_loss, v_loss, entropy_loss);
    if (update % 5 == 0) {
      std::filesystem::create_directories("./ModelCheckpoints/");
      torch::save(m_agent, "./ModelCheckpoints/PPO_Agent_" + std::to_string(global_step) + "_steps.pt");
      torch::save(*m_optimizer, "./ModelCheckpoints/PPO_Optimizer_" + std::to_string(global_step) + "_steps.pt");
    }
  }
}

int main() {
  PPO_MultiDiscrete ppo;
  ppo.train();
}
