// PPO_Discrete with a step-decay learning-rate schedule in place of linear
// annealing: minibatch gradients are summed in .grad and optimizerStep() turns the
// sum into a mean, clips it, steps the optimizer and advances the schedule.
#include <torch/torch.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "gym_lite.hpp"
#include "ppo_agent_lite.hpp"

class PPO_Scheduled {
 public:
  PPO_Scheduled();
  void train();

 private:
  bool shouldStep(int64_t minibatch) const {
    return (minibatch + 1) % m_minibatches_per_step == 0 || minibatch + 1 == m_num_minibatches;
  }
  void optimizerStep(int64_t minibatches_in_step);

  int64_t m_obs_size = 4, m_action_size = 2;
  float m_learning_rate = 3e-4f;
  int64_t m_num_envs = 8, m_num_steps = 256, m_num_updates = 400;
  float m_gamma = 0.99f, m_gae_lambda = 0.95f;
  int64_t m_num_minibatches = 10, m_minibatches_per_step = 4, m_update_epochs = 6;
  float m_clip_coef = 0.2f, m_ent_coef = 0.01f, m_vf_coef = 0.5f, m_max_grad_value = 1.0f;
  int64_t m_batch_size, m_minibatch_size;

  std::shared_ptr<torch::Device> m_device;
  std::shared_ptr<Agent> m_agent;
  std::shared_ptr<torch::optim::Adam> m_optimizer;
  std::unique_ptr<torch::optim::StepLR> m_scheduler;
  std::unique_ptr<gym_lite::VecEnv> m_envs;
};

PPO_Scheduled::PPO_Scheduled() {
  m_batch_size = m_num_envs * m_num_steps;
  m_minibatch_size = m_batch_size / m_num_minibatches;
  m_device = std::make_shared<torch::Device>(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  m_agent = std::make_shared<Agent>(m_obs_size, m_action_size, m_device);
  m_agent->to(*m_device);
  m_optimizer = std::make_shared<torch::optim::Adam>(m_agent->parameters(),
                                                     torch::optim::AdamOptions(m_learning_rate).eps(1e-5));
  // halve the rate every 2000 optimizer steps
  m_scheduler = std::make_unique<torch::optim::StepLR>(*m_optimizer, 2000, 0.5);
  m_envs = std::make_unique<gym_lite::VecEnv>(m_num_envs, m_obs_size, m_action_size);
}

void PPO_Scheduled::optimizerStep(int64_t minibatches_in_step) {
  for (auto& p : m_agent->parameters()) {
    if (p.grad().defined()) p.grad().mul_(1.0 / static_cast<double>(minibatches_in_step));
  }
  torch::nn::utils::clip_grad_value_(m_agent->parameters(), m_max_grad_value);
  m_optimizer->step();
  m_scheduler->step();
  m_optimizer->zero_grad();
}

void PPO_Scheduled::train() {
  auto next_obs = m_envs->reset().to(*m_device);
  auto next_done = torch::zeros({m_num_envs}, *m_device);
  auto obs = torch::zeros({m_num_steps, m_num_envs, m_obs_size}, *m_device);
  auto actions = torch::zeros({m_num_steps, m_num_envs}, torch::TensorOptions().dtype(torch::kLong).device(*m_device));
  auto logprobs = torch::zeros({m_num_steps, m_num_envs}, *m_device);
  auto rewards = torch::zeros({m_num_steps, m_num_envs}, *m_device);
  auto dones = torch::zeros({m_num_steps, m_num_envs}, *m_device);
  auto values = torch::zeros({m_num_steps, m_num_envs}, *m_device);

  for (int64_t update = 1; update <= m_num_updates; update++) {
    {
      torch::NoGradGuard no_grad;
      for (int64_t step = 0; step < m_num_steps; step++) {
        obs[step] = next_obs;
        dones[step] = next_done;
        auto out = m_agent->getActionAndValueDiscrete(next_obs);
        values[step] = out.value.flatten();
        actions[step] = out.action;
        logprobs[step] = out.logprob;
        auto [o, r, d] = m_envs->step(out.action.cpu());
        rewards[step] = r.to(*m_device);
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

    float loss_sum = 0.f;
    for (int64_t epoch = 0; epoch < m_update_epochs; epoch++) {
      auto b_inds = torch::randperm(m_batch_size, torch::TensorOptions().dtype(torch::kLong).device(*m_device));
      int64_t pending = 0;
      for (int64_t mb = 0; mb < m_num_minibatches; mb++) {
        auto mb_inds = b_inds.slice(0, mb * m_minibatch_size, (mb + 1) * m_minibatch_size);
        auto out = m_agent->getActionAndValueDiscrete(b_obs.index({mb_inds}), b_actions.index({mb_inds}));
        auto ratio = (out.logprob - b_logprobs.index({mb_inds})).exp();
        auto mb_adv = b_advantages.index({mb_inds});
        mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8f);
        auto pg_loss = torch::max(-mb_adv * ratio, -mb_adv * torch::clamp(ratio, 1 - m_clip_coef, 1 + m_clip_coef)).mean();
        auto v_loss = 0.5f * (out.value.view(-1) - b_returns.index({mb_inds})).pow(2).mean();
        auto loss = pg_loss - m_ent_coef * out.entropy.mean() + m_vf_coef * v_loss;
        loss.backward();
        ++pending;
        loss_sum += loss.item<float>();

        if (shouldStep(mb)) {
          optimizerStep(pending);
          pending = 0;
        }
      }
    }

    std::cout << "update " << update << " loss " << loss_sum / (m_update_epochs * m_num_minibatches) << " lr "
              << m_optimizer->param_groups()[0].options().get_lr() << std::endl;
    if (update % 20 == 0) {
      std::filesystem::create_directories("./ModelCheckpoints/");
      torch::save(m_agent, "./ModelCheckpoints/PPO_Agent_" + std::to_string(update) + ".pt");
    }
  }
}

int main() {
  PPO_Scheduled ppo;
  ppo.train();
}
