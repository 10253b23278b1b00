// Multi-process PPO learner for ALE with per-minibatch metrics: the scalar losses
// are all-reduced on every minibatch for the logger, the gradients once per
// optimizer step.
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <vector>

namespace ai::ppo {

struct Config {
  float clip_param = 0.1f;
  float value_loss_coef = 0.5f;
  float entropy_coef = 0.01f;
  float max_gradient_norm = 0.5f;
  long num_epochs = 3;
  long num_mini_batches = 12;
  long accumulation_steps = 3;
  double learning_rate = 2.5e-4;
};

struct Batch {
  torch::Tensor observations, actions, log_probabilities, advantages, returns;
};

struct PolicyImpl : torch::nn::Module {
  PolicyImpl() {
    trunk = register_module("trunk", torch::nn::Sequential(torch::nn::Flatten(), torch::nn::Linear(4 * 84 * 84, 512),
                                                           torch::nn::ReLU()));
    pi = register_module("pi", torch::nn::Linear(512, 4));
    v = register_module("v", torch::nn::Linear(512, 1));
  }
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& x) {
    auto h = trunk->forward(x.to(torch::kFloat) / 255.0);
    return {torch::log_softmax(pi->forward(h), -1), v->forward(h).squeeze(-1)};
  }
  torch::nn::Sequential trunk{nullptr};
  torch::nn::Linear pi{nullptr}, v{nullptr};
};
TORCH_MODULE(Policy);

class Logger {
 public:
  void add_scalar(const std::string& name, long step, float value) {
    if (step % 50 == 0) std::cout << name << "@" << step << " = " << value << std::endl;
  }
};

void train(Policy& policy, torch::optim::Adam& optimizer, c10d::ProcessGroup& pg, const Batch& batch,
           const Config& config, Logger& logger, long& log_step) {
  const int world = pg.getSize();
  const int64_t size = batch.observations.size(0);
  const int64_t mb_size = size / config.num_mini_batches;
  for (long epoch = 0; epoch < config.num_epochs; ++epoch) {
    auto perm = torch::randperm(size, torch::TensorOptions().dtype(torch::kLong));
    for (long i = 0; i < config.num_mini_batches; ++i) {
      if (i % config.accumulation_steps == 0) {
        optimizer.zero_grad();
      }
      auto idx = perm.narrow(0, i * mb_size, mb_size);
      auto [log_probs, values] = policy->forward(batch.observations.index_select(0, idx));
      auto lp = log_probs.gather(1, batch.actions.index_select(0, idx).unsqueeze(1)).squeeze(1);
      auto adv = batch.advantages.index_select(0, idx);
      auto ratio = (lp - batch.log_probabilities.index_select(0, idx)).exp();
      auto policy_loss =
          -torch::min(ratio * adv, ratio.clamp(1 - config.clip_param, 1 + config.clip_param) * adv).mean();
      auto value_loss = (values - batch.returns.index_select(0, idx)).pow(2).mean();
      auto entropy = -(log_probs.exp() * log_probs).sum(-1).mean();
      auto loss = policy_loss + config.value_loss_coef * value_loss - config.entropy_coef * entropy;
      (loss / static_cast<double>(config.accumulation_steps)).backward();

      // Global mean of this minibatch's losses, for logging only.
      std::vector<torch::Tensor> metrics{torch::stack({policy_loss.detach(), value_loss.detach(), entropy.detach()})};
      pg.allreduce(metrics)->wait();
      metrics[0].div_(world);
      logger.add_scalar("policy_loss", log_step, metrics[0][0].item<float>());
      logger.add_scalar("value_loss", log_step, metrics[0][1].item<float>());
      logger.add_scalar("entropy", log_step, metrics[0][2].item<float>());
      ++log_step;

      if (i % config.accumulation_steps == config.accumulation_steps - 1) {
        for (auto& p : policy->parameters()) {
          std::vector<torch::Tensor> g{p.grad()};
          pg.allreduce(g)->wait();
          p.grad().div_(world);
        }
        torch::nn::utils::clip_grad_norm_(policy->parameters(), config.max_gradient_norm);
        optimizer.step();
      }
    }
  }
}

}  // namespace ai::ppo

int main() {
  const int rank = std::atoi(std::getenv("RANK") ? std::getenv("RANK") : "0");
  const int world = std::atoi(std::getenv("WORLD_SIZE") ? std::getenv("WORLD_SIZE") : "1");
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/ale_ddp_store", world);
  auto options = c10d::ProcessGroupGloo::Options::create();
  options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  c10d::ProcessGroupGloo pg(store, rank, world, options);

  ai::ppo::Config config;
  torch::manual_seed(9);
  ai::ppo::Policy policy;
  torch::optim::Adam optimizer(policy->parameters(), torch::optim::AdamOptions(config.learning_rate).eps(1e-5));
  ai::ppo::Logger logger;
  long log_step = 0;
  const int64_t n = 1536;
  for (int rollout = 0; rollout < 3000; ++rollout) {
    ai::ppo::Batch batch{torch::randint(0, 256, {n, 4, 84, 84}).to(torch::kUInt8), torch::randint(0, 4, {n}),
                         torch::full({n}, -1.386f), torch::randn({n}), torch::randn({n})};
    ai::ppo::train(policy, optimizer, pg, batch, config, logger, log_step);
  }
}
