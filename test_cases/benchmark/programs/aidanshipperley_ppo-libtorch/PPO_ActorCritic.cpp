// PPO with separate actor and critic optimizers (PPO-LibTorch's Agent has separate
// m_Actor and m_Critic networks). The critic is updated on every minibatch; the
// policy gradient is averaged over m_actor_accum_steps minibatches per actor step.
#include <torch/torch.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "gym_lite.hpp"
#include "ppo_agent_lite.hpp"

class PPO_ActorCritic {
 public:
  PPO_ActorCritic();
  void train();

 private:
  void zeroGrads();
  void rollout(torch::Tensor& next_obs, torch::Tensor& next_done, uint64_t& global_step);

  int64_t m_obs_size = 8, m_action_size = 4;
  float m_actor_lr = 3e-4f, m_critic_lr = 1e-3f;
  int64_t m_num_envs = 8, m_num_steps = 256, m_total_timesteps = 1000000;
  float m_gamma = 0.99f, m_gae_lambda = 0.95f;
  int64_t m_num_minibatches = 32, m_update_epochs = 10, m_actor_accum_steps = 4;
  float m_clip_coef = 0.2f, m_ent_coef = 0.0f, m_max_grad_norm = 0.5f;
  int64_t m_batch_size, m_minibatch_size;

  std::shared_ptr<torch::Device> m_device;
  std::shared_ptr<Agent> m_agent;
  std::shared_ptr<torch::optim::Adam> m_actor_optimizer;
  std::shared_ptr<torch::optim::Adam> m_critic_optimizer;
  std::unique_ptr<gym_lite::VecEnv> m_envs;
  std::unique_ptr<CircularBuffer> m_episode_stats;
  torch::Tensor m_obs, m_actions, m_logprobs, m_rewards, m_dones, m_values;
};

PPO_ActorCritic::PPO_ActorCritic() {
  m_batch_size = m_num_envs * m_num_steps;
  m_minibatch_size = m_batch_size / m_num_minibatches;
  m_device = std::make_shared<torch::Device>(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  m_agent = std::make_shared<Agent>(m_obs_size, m_action_size, m_device);
  m_agent->to(*m_device);
  m_actor_optimizer = std::make_shared<torch::optim::Adam>(m_agent->m_Actor->parameters(),
                                                           torch::optim::AdamOptions(m_actor_lr).eps(1e-5));
  m_critic_optimizer = std::make_shared<torch::optim::Adam>(m_agent->m_Critic->parameters(),
                                                            torch::optim::AdamOptions(m_critic_lr).eps(1e-5));
  m_envs = std::make_unique<gym_lite::VecEnv>(m_num_envs, m_obs_size, m_action_size);
  m_episode_stats = std::make_unique<CircularBuffer>(100);
  m_obs = torch::zeros({m_num_steps, m_num_envs, m_obs_size}, *m_device);
  m_actions = torch::zeros({m_num_steps, m_num_envs}, torch::TensorOptions().dtype(torch::kLong).device(*m_device));
  m_logprobs = torch::zeros({m_num_steps, m_num_envs}, *m_device);
  m_rewards = torch::zeros({m_num_steps, m_num_envs}, *m_device);
  m_dones = torch::zeros({m_num_steps, m_num_envs}, *m_device);
  m_values = torch::zeros({m_num_steps, m_num_envs}, *m_device);
}

void PPO_ActorCritic::zeroGrads() {
  m_actor_optimizer->zero_grad();
  m_critic_optimizer->zero_grad();
}

void PPO_ActorCritic::rollout(torch::Tensor& next_obs, torch::Tensor& next_done, uint64_t& global_step) {
  torch::NoGradGuard no_grad;
  for (int64_t step = 0; step < m_num_steps; step++) {
    global_step += m_num_envs;
    m_obs[step] = next_obs;
    m_dones[step] = next_done;
    auto out = m_agent->getActionAndValueDiscrete(next_obs);
    m_values[step] = out.value.flatten();
    m_actions[step] = out.action;
    m_logprobs[step] = out.logprob;
    auto [obs, reward, done] = m_envs->step(out.action.cpu());
    m_rewards[step] = reward.to(*m_device);
    m_episode_stats->add(reward.mean().item<float>());
    next_obs = obs.to(*m_device);
    next_done = done.to(*m_device);
  }
}

void PPO_ActorCritic::train() {
  uint64_t global_step = 0;
  auto start_time = std::chrono::steady_clock::now();
  torch::Tensor next_obs = m_envs->reset().to(*m_device);
  torch::Tensor next_done = torch::zeros({m_num_envs}, *m_device);
  const int64_t num_updates = m_total_timesteps / m_batch_size;

  for (int64_t update = 1; update <= num_updates; update++) {
    rollout(next_obs, next_done, global_step);

    torch::Tensor advantages = torch::zeros_like(m_rewards);
    {
      torch::NoGradGuard no_grad;
      auto next_value = m_agent->getValue(next_obs).reshape({1, -1});
      auto lastgaelam = torch::zeros({1, m_num_envs}, *m_device);
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

    float pg_sum = 0.f, v_sum = 0.f;
    int64_t minibatch_count = 0;
    for (int64_t epoch = 0; epoch < m_update_epochs; epoch++) {
      auto b_inds = torch::randperm(m_batch_size, torch::TensorOptions().dtype(torch::kLong).device(*m_device));
      for (int64_t start = 0; start < m_batch_size; start += m_minibatch_size) {
        auto mb_inds = b_inds.slice(0, start, start + m_minibatch_size);
        zeroGrads();

        auto out = m_agent->getActionAndValueDiscrete(b_obs.index({mb_inds}), b_actions.index({mb_inds}));
        auto ratio = (out.logprob - b_logprobs.index({mb_inds})).exp();
        auto mb_adv = b_advantages.index({mb_inds});
        mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8f);

        // Critic: every minibatch
        auto v_loss = 0.5f * (out.value.view(-1) - b_returns.index({mb_inds})).pow(2).mean();
        v_loss.backward();
        torch::nn::utils::clip_grad_norm_(m_agent->m_Critic->parameters(), m_max_grad_norm);
        m_critic_optimizer->step();

        // Actor: averaged over m_actor_accum_steps minibatches
        auto pg_loss =
            torch::max(-mb_adv * ratio, -mb_adv * torch::clamp(ratio, 1 - m_clip_coef, 1 + m_clip_coef)).mean() -
            m_ent_coef * out.entropy.mean();
        (pg_loss / m_actor_accum_steps).backward();
        if (++minibatch_count % m_actor_accum_steps == 0) {
          torch::nn::utils::clip_grad_norm_(m_agent->m_Actor->parameters(), m_max_grad_norm);
          m_actor_optimizer->step();
        }
        pg_sum += pg_loss.item<float>();
        v_sum += v_loss.item<float>();
      }
    }

    auto elapsed = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start_time);
    std::cout << "| update " << update << " | steps " << global_step << " | pg " << pg_sum / minibatch_count
              << " | v " << v_sum / minibatch_count << " | ep_rew " << m_episode_stats->mean() << " | "
              << elapsed.count() << " s |" << std::endl;
    if (update % 10 == 0) {
      std::filesystem::create_directories("./ModelCheckpoints/");
      torch::save(m_agent, "./ModelCheckpoints/PPO_Agent_" + std::to_string(global_step) + ".pt");
    }
  }
}

int main() {
  PPO_ActorCritic ppo;
  ppo.train();
}
