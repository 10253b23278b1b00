// PPO-LibTorch discrete agent trained by several worker processes over Gloo. The
// loss is pre-scaled by 1 / (accumulation steps x workers), so a plain summing
// all-reduce at the end of each window yields the global mean gradient.
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

class PPO_MultiWorker {
 public:
  PPO_MultiWorker(c10::intrusive_ptr<c10d::ProcessGroupGloo> pg, int rank);
  void train();

 private:
  void sumGradientsAcrossWorkers();

  c10::intrusive_ptr<c10d::ProcessGroupGloo> m_pg;
  int m_rank;
  int m_world_size;
  int64_t m_obs_size = 4, m_action_size = 2;
  int64_t m_num_envs = 4, m_num_steps = 256, m_num_updates = 300;
  int64_t m_num_minibatches = 16, m_update_epochs = 4, m_grad_accum_steps = 4;
  float m_gamma = 0.99f, m_gae_lambda = 0.95f, m_clip_coef = 0.2f, m_ent_coef = 0.01f, m_vf_coef = 0.5f;
  float m_max_grad_norm = 0.5f, m_learning_rate = 2.5e-4f;
  int64_t m_batch_size, m_minibatch_size;
  std::shared_ptr<torch::Device> m_device;
  std::shared_ptr<Agent> m_agent;
  std::shared_ptr<torch::optim::AdamW> m_optimizer;
  std::unique_ptr<gym_lite::VecEnv> m_envs;
};

PPO_MultiWorker::PPO_MultiWorker(c10::intrusive_ptr<c10d::ProcessGroupGloo> pg, int rank)
    : m_pg(std::move(pg)), m_rank(rank) {
  m_world_size = m_pg->getSize();
  m_batch_size = m_num_envs * m_num_steps;
  m_minibatch_size = m_batch_size / m_num_minibatches;
  m_device = std::make_shared<torch::Device>(torch::kCPU);
  torch::manual_seed(11);
  m_agent = std::make_shared<Agent>(m_obs_size, m_action_size, m_device);
  m_optimizer = std::make_shared<torch::optim::AdamW>(
      m_agent->parameters(), torch::optim::AdamWOptions(m_learning_rate).eps(1e-5).weight_decay(1e-4));
  torch::manual_seed(11 + 1000 * rank);
  m_envs = std::make_unique<gym_lite::VecEnv>(m_num_envs, m_obs_size, m_action_size);
}

void PPO_MultiWorker::sumGradientsAcrossWorkers() {
  std::vector<torch::Tensor> grads;
  for (auto& p : m_agent->parameters()) grads.push_back(p.grad());
  m_pg->allreduce_coalesced(grads)->wait();
}

void PPO_MultiWorker::train() {
  auto next_obs = m_envs->reset();
  auto next_done = torch::zeros({m_num_envs});
  auto obs_buf = torch::zeros({m_num_steps, m_num_envs, m_obs_size});
  auto act_buf = torch::zeros({m_num_steps, m_num_envs}, torch::kLong);
  auto logp_buf = torch::zeros({m_num_steps, m_num_envs});
  auto rew_buf = torch::zeros({m_num_steps, m_num_envs});
  auto done_buf = torch::zeros({m_num_steps, m_num_envs});
  auto val_buf = torch::zeros({m_num_steps, m_num_envs});

  for (int64_t update = 1; update <= m_num_updates; update++) {
    double frac = 1.0 - (update - 1.0) / m_num_updates;
    static_cast<torch::optim::AdamWOptions&>(m_optimizer->param_groups()[0].options()).lr(frac * m_learning_rate);

    {
      torch::NoGradGuard no_grad;
      for (int64_t step = 0; step < m_num_steps; step++) {
        obs_buf[step] = next_obs;
        done_buf[step] = next_done;
        auto out = m_agent->getActionAndValueDiscrete(next_obs);
        val_buf[step] = out.value.flatten();
        act_buf[step] = out.action;
        logp_buf[step] = out.logprob;
        auto [obs, reward, done] = m_envs->step(out.action);
        rew_buf[step] = reward;
        next_obs = obs;
        next_done = done;
      }
    }
    torch::Tensor advantages = torch::zeros_like(rew_buf);
    {
      torch::NoGradGuard no_grad;
      auto next_value = m_agent->getValue(next_obs).reshape({1, -1});
      auto lastgaelam = torch::zeros({1, m_num_envs});
      for (int64_t t = m_num_steps - 1; t >= 0; t--) {
        auto nextnonterminal = t == m_num_steps - 1 ? 1.0 - next_done : 1.0 - done_buf[t + 1];
        auto nextvalues = t == m_num_steps - 1 ? next_value : val_buf[t + 1];
        auto delta = rew_buf[t] + m_gamma * nextvalues * nextnonterminal - val_buf[t];
        lastgaelam = delta + m_gamma * m_gae_lambda * nextnonterminal * lastgaelam;
        advantages[t] = lastgaelam[0];
      }
    }
    auto b_obs = obs_buf.reshape({-1, m_obs_size});
    auto b_actions = act_buf.reshape(-1);
    auto b_logprobs = logp_buf.reshape(-1);
    auto b_advantages = advantages.reshape(-1);
    auto b_returns = (advantages + val_buf).reshape(-1);

    const double loss_scale = 1.0 / static_cast<double>(m_grad_accum_steps * m_world_size);
    float last_loss = 0.f;
    for (int64_t epoch = 0; epoch < m_update_epochs; epoch++) {
      auto b_inds = torch::randperm(m_batch_size);
      m_optimizer->zero_grad();
      for (int64_t mb = 0; mb < m_num_minibatches; mb++) {
        auto mb_inds = b_inds.slice(0, mb * m_minibatch_size, (mb + 1) * m_minibatch_size);
        auto out = m_agent->getActionAndValueDiscrete(b_obs.index({mb_inds}), b_actions.index({mb_inds}));
        auto ratio = (out.logprob - b_logprobs.index({mb_inds})).exp();
        auto mb_adv = b_advantages.index({mb_inds});
        mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8f);
        auto pg_loss = torch::max(-mb_adv * ratio, -mb_adv * torch::clamp(ratio, 1 - m_clip_coef, 1 + m_clip_coef)).mean();
        auto v_loss = 0.5f * (out.value.view(-1) - b_returns.index({mb_inds})).pow(2).mean();
        auto loss = pg_loss - m_ent_coef * out.entropy.mean() + m_vf_coef * v_loss;
        (loss * loss_scale).backward();
        last_loss = loss.item<float>();

        if (mb % m_grad_accum_steps != m_grad_accum_steps - 1 && mb != m_num_minibatches - 1) {
          continue;
        }
        sumGradientsAcrossWorkers();
        torch::nn::utils::clip_grad_norm_(m_agent->parameters(), m_max_grad_norm);
        m_optimizer->step();
        m_optimizer->zero_grad();
      }
    }

    if (m_rank == 0) {
      std::cout << "update " << update << " loss " << last_loss << std::endl;
      if (update % 25 == 0) torch::save(m_agent, "PPO_Agent_" + std::to_string(update) + ".pt");
    }
  }
}

int main() {
  const int rank = std::atoi(std::getenv("RANK") ? std::getenv("RANK") : "0");
  const int world_size = std::atoi(std::getenv("WORLD_SIZE") ? std::getenv("WORLD_SIZE") : "1");
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/ppo_multiworker_store", world_size);
  auto options = c10d::ProcessGroupGloo::Options::create();
  options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size, options);
  PPO_MultiWorker worker(pg, rank);
  worker.train();
}
