// PPO_Discrete configured for MountainCar: long rollouts, large minibatches split
// into m_grad_accum_steps optimizer sub-steps, and linear learning-rate annealing.
#include <torch/torch.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "gym_lite.hpp"
#include "ppo_agent_lite.hpp"

class PPO_MountainCar {
 public:
  PPO_MountainCar();
  void train();

 private:
  void setLearningRate(double lr);
  double currentLearningRate();

  int64_t m_obs_size = 2, m_action_size = 3;
  float m_learning_rate = 0.001f;
  int64_t m_total_timesteps = 2000000, m_num_envs = 16, m_num_steps = 1024;
  bool m_anneal_lr = true;
  float m_gamma = 0.999f, m_gae_lambda = 0.98f;
  int64_t m_num_minibatches = 16, m_update_epochs = 8, m_grad_accum_steps = 2;
  float m_clip_coef = 0.2f, m_ent_coef = 0.0f, m_vf_coef = 0.5f, m_max_grad_norm = 0.5f;
  int64_t m_checkpoint_updates = 10;
  int64_t m_batch_size, m_minibatch_size;

  std::shared_ptr<torch::Device> m_device;
  std::shared_ptr<Agent> m_agent;
  std::shared_ptr<torch::optim::AdamW> m_optimizer;
  std::unique_ptr<gym_lite::VecEnv> m_envs;
  std::unique_ptr<CircularBuffer> m_episode_stats;
};

PPO_MountainCar::PPO_MountainCar() {
  m_batch_size = m_num_envs * m_num_steps;
  m_minibatch_size = m_batch_size / m_num_minibatches;
  m_device = std::make_shared<torch::Device>(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  m_agent = std::make_shared<Agent>(m_obs_size, m_action_size, m_device);
  m_agent->to(*m_device);
  m_optimizer = std::make_shared<torch::optim::AdamW>(m_agent->parameters(),
                                                      torch::optim::AdamWOptions(m_learning_rate).eps(1e-5f));
  m_envs = std::make_unique<gym_lite::VecEnv>(m_num_envs, m_obs_size, m_action_size);
  m_episode_stats = std::make_unique<CircularBuffer>(100);
}

void PPO_MountainCar::setLearningRate(double lr) {
  static_cast<torch::optim::AdamWOptions&>(m_optimizer->param_groups()[0].options()).lr(lr);
}

double PPO_MountainCar::currentLearningRate() {
  return static_cast<torch::optim::AdamWOptions&>(m_optimizer->param_groups()[0].options()).lr();
}

void PPO_MountainCar::train() {
  uint64_t global_step = 0;
  const auto start_time = std::chrono::steady_clock::now();
  const int64_t num_updates = m_total_timesteps / m_batch_size;
  auto next_obs = m_envs->reset().to(*m_device);
  auto next_done = torch::zeros({m_num_envs}, *m_device);
  auto obs = torch::zeros({m_num_steps, m_num_envs, m_obs_size}, *m_device);
  auto actions = torch::zeros({m_num_steps, m_num_envs}, torch::TensorOptions().dtype(torch::kLong).device(*m_device));
  auto logprobs = torch::zeros({m_num_steps, m_num_envs}, *m_device);
  auto rewards = torch::zeros({m_num_steps, m_num_envs}, *m_device);
  auto dones = torch::zeros({m_num_steps, m_num_envs}, *m_device);
  auto values = torch::zeros({m_num_steps, m_num_envs}, *m_device);

  for (int64_t update = 1; update <= num_updates; update++) {
    if (m_anneal_lr) {
      const double frac = 1.0 - (update - 1.0) / num_updates;
      // each optimizer step now sees m_grad_accum_steps minibatches
      setLearningRate(frac * m_learning_rate / m_grad_accum_steps);
    }

    {
      torch::NoGradGuard no_grad;
      for (int64_t step = 0; step < m_num_steps; step++) {
        global_step += m_num_envs;
        obs[step] = next_obs;
        dones[step] = next_done;
        auto out = m_agent->getActionAndValueDiscrete(next_obs);
        values[step] = out.value.flatten();
        actions[step] = out.action;
        logprobs[step] = out.logprob;
        auto [o, r, d] = m_envs->step(out.action.cpu());
        rewards[step] = r.to(*m_device);
        m_episode_stats->add(r.sum().item<float>());
        next_obs = o.to(*m_device);
        next_done = d.to(*m_device);
      }
    }

    auto advantages = torch::zeros_like(rewards);
    {
      torch::NoGradGuard no_grad;
      auto next_value = m_agent->getValue(next_obs).reshape({1, -1});
      auto lastgaelam = torch::zeros({1, m_num_envs}, *m_device);
      for (int64_t t = m_num_steps - 1; t >= 0; t--) {
        auto nextnonterminal = t == m_num_steps - 1 ? 1.0 - next_done : 1.0 - dones[t + 1];
        auto nextvalues = t == m_num_steps - 1 ? next_value : values[t + 1];
        auto delta = rewards[t] + m_gamma * nextvalues * nextnonterminal - values[t];
        lastgaelam = delta + m_gamma * m_gae_lambda * nextnonterminal * lastgaelam;
        advantages[t] = lastgaelam[0];
      }
    }
    auto b_obs = obs.reshape({-1, m_obs_size});
    auto b_actions = actions.reshape(-1);
    auto b_logprobs = logprobs.reshape(-1);
    auto b_advantages = advantages.reshape(-1);
    auto b_returns = (advantages + values).reshape(-1);
    auto b_values = values.reshape(-1);

    torch::Tensor loss, pg_loss, v_loss;
    for (int64_t epoch = 0; epoch < m_update_epochs; epoch++) {
      auto b_inds = torch::randperm(m_batch_size, torch::TensorOptions().dtype(torch::kLong).device(*m_device));
      for (int64_t mb = 0; mb < m_num_minibatches; mb++) {
        auto mb_inds = b_inds.slice(0, mb * m_minibatch_size, (mb + 1) * m_minibatch_size);
        auto out = m_agent->getActionAndValueDiscrete(b_obs.index({mb_inds}), b_actions.index({mb_inds}));
        auto ratio = (out.logprob - b_logprobs.index({mb_inds})).exp();
        auto mb_adv = b_advantages.index({mb_inds});
        mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8f);
        pg_loss = torch::max(-mb_adv * ratio, -mb_adv * torch::clamp(ratio, 1 - m_clip_coef, 1 + m_clip_coef)).mean();
        auto newvalue = out.value.view(-1);
        auto v_clipped = b_values.index({mb_inds}) +
                         torch::clamp(newvalue - b_values.index({mb_inds}), -m_clip_coef, m_clip_coef);
        v_loss = 0.5f * torch::max((newvalue - b_returns.index({mb_inds})).pow(2),
                                   (v_clipped - b_returns.index({mb_inds})).pow(2))
                            .mean();
        loss = pg_loss - m_ent_coef * out.entropy.mean() + v_loss * m_vf_coef;
        (loss / m_grad_accum_steps).backward();

        const bool stepNow = (mb + 1) % m_grad_accum_steps == 0;
        if (stepNow) {
          torch::nn::utils::clip_grad_norm_(m_agent->parameters(), m_max_grad_norm);
          m_optimizer->step();
          m_optimizer->zero_grad();
        }
      }
    }

    auto elapsed = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start_time);
    std::cout << "| update " << update << " | steps " << global_step << " | lr " << currentLearningRate() << " | loss "
              << loss.item<float>() << " | ep_rew " << m_episode_stats->mean() << " | " << elapsed.count() << "s |\n";
    if (update % m_checkpoint_updates == 0) {
      std::filesystem::create_directories("./ModelCheckpoints/");
      torch::save(m_agent, "./ModelCheckpoints/PPO_Agent_" + std::to_string(global_step) + "_steps.pt");
      torch::save(*m_optimizer, "./ModelCheckpoints/PPO_Optimizer_" + std::to_string(global_step) + "_steps.pt");
    }
  }
}

int main() {
  PPO_MountainCar ppo;
  ppo.train();
}
