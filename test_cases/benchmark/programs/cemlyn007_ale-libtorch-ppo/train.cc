// PPO training step for the ALE agent (ai::ppo::train): minibatch updates over the
// rollout batch, with several minibatches per optimizer step so that the Atari
// network fits on the GPU at the configured minibatch size.
#include <torch/torch.h>

#include <array>
#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <vector>

namespace ai::ppo::losses {

struct Metrics {
  torch::Tensor loss, clipped_losses, value_losses, entropies, total_losses, ratio, masks;
};

inline torch::Tensor normalize_logits(const torch::Tensor& logits) {
  return logits - logits.logsumexp(-1, true);
}

inline Metrics compute(const torch::Tensor& log_probabilities, const torch::Tensor& old_log_probabilities,
                       const torch::Tensor& actions, const torch::Tensor& advantages, const torch::Tensor& values,
                       const torch::Tensor& returns, const torch::Tensor& masks, float clip_param,
                       float value_loss_coef, float entropy_coef) {
  auto action_log_probs = log_probabilities.gather(1, actions.unsqueeze(1)).squeeze(1);
  auto ratio = torch::exp(action_log_probs - old_log_probabilities);
  auto clipped = -torch::min(ratio * advantages, torch::clamp(ratio, 1 - clip_param, 1 + clip_param) * advantages);
  auto value_losses = (values.squeeze(-1) - returns).pow(2);
  auto entropies = -(log_probabilities.exp() * log_probabilities).sum(-1);
  auto total = clipped + value_loss_coef * value_losses - entropy_coef * entropies;
  auto mask = masks.to(torch::kFloat);
  auto loss = (total * mask).sum() / mask.sum().clamp_min(1.0);
  return {loss, clipped.detach(), value_losses.detach(), entropies.detach(), total.detach(), ratio.detach(), masks};
}

}  // namespace ai::ppo::losses

namespace ai::ppo::train {

struct Hyperparameters {
  float clip_param;
  float value_loss_coef;
  float entropy_coef;
  float max_gradient_norm;
  int64_t gradient_accumulation_steps;
};

struct Batch {
  torch::Tensor observations, actions, log_probabilities, advantages, returns, masks;
  Batch slice(int64_t start, int64_t end) const {
    return {observations.slice(0, start, end),      actions.slice(0, start, end),
            log_probabilities.slice(0, start, end), advantages.slice(0, start, end),
            returns.slice(0, start, end),           masks.slice(0, start, end)};
  }
};

struct MiniBatchUpdateResult {
  losses::Metrics ppo;
};

struct Metrics {
  torch::Tensor loss, clipped_gradients;
  Metrics(int64_t num_epochs, int64_t num_mini_batches, const torch::Device& device) {
    loss = torch::zeros({num_epochs, num_mini_batches}, torch::TensorOptions().device(device));
    clipped_gradients = torch::zeros({num_epochs, num_mini_batches}, torch::TensorOptions().device(device));
  }
};

// Clips by the global L2 norm of all gradients and returns that norm.
torch::Tensor clip_grad_norm_(const std::vector<torch::Tensor>& parameters, double max_norm) {
  std::vector<torch::Tensor> norms;
  for (const auto& param : parameters) {
    if (param.grad().defined()) norms.emplace_back(param.grad().data().norm(2.0));
  }
  if (norms.empty()) return torch::zeros({});
  auto total_norm = torch::stack(norms).norm(2.0);
  auto coef = torch::clamp(max_norm / (total_norm + 1e-6), c10::nullopt, 1.0);
  for (const auto& param : parameters) {
    if (param.grad().defined()) param.grad().data().mul_(coef);
  }
  return total_norm;
}

template <typename Network>
MiniBatchUpdateResult mini_batch_update(Network& network, const Batch& batch, Hyperparameters& hyperparameters) {
  auto output = network->forward(batch.observations);
  auto log_probabilities = losses::normalize_logits(output.logits);
  auto ppo_metrics = losses::compute(log_probabilities, batch.log_probabilities, batch.actions, batch.advantages,
                                     output.value, batch.returns, batch.masks, hyperparameters.clip_param,
                                     hyperparameters.value_loss_coef, hyperparameters.entropy_coef);
  (ppo_metrics.loss / static_cast<double>(hyperparameters.gradient_accumulation_steps)).backward();
  return MiniBatchUpdateResult{ppo_metrics};
}

template <typename Network>
void train(Network& network, torch::optim::Optimizer& optimizer, Metrics& metrics, torch::Tensor& indices,
           Batch& batch, size_t num_epochs, size_t num_mini_batches, Hyperparameters& hyperparameters) {
  network->train();
  size_t size = batch.observations.size(0);
  if (size % num_mini_batches != 0) {
    throw std::runtime_error("Batch size must be divisible by num_mini_batches");
  }
  if (num_mini_batches % hyperparameters.gradient_accumulation_steps != 0) {
    throw std::runtime_error("num_mini_batches must be divisible by gradient_accumulation_steps");
  }
  size_t mini_batch_size = size / num_mini_batches;
  for (size_t epoch_index = 0; epoch_index < num_epochs; epoch_index++) {
    torch::randperm_out(indices, static_cast<int64_t>(size));
    Batch shuffled{batch.observations.index_select(0, indices), batch.actions.index_select(0, indices),
                   batch.log_probabilities.index_select(0, indices), batch.advantages.index_select(0, indices),
                   batch.returns.index_select(0, indices), batch.masks.index_select(0, indices)};
    for (size_t mini_batch_index = 0; mini_batch_index < num_mini_batches; mini_batch_index++) {
      auto start = mini_batch_index * mini_batch_size;
      Batch mini_batch = shuffled.slice(start, start + mini_batch_size);
      MiniBatchUpdateResult result = mini_batch_update(network, mini_batch, hyperparameters);
      metrics.loss.index_put_({static_cast<int64_t>(epoch_index), static_cast<int64_t>(mini_batch_index)},
                              result.ppo.loss.detach());
      if ((mini_batch_index + 1) % hyperparameters.gradient_accumulation_steps == 0) {
        auto norm = clip_grad_norm_(network->parameters(), hyperparameters.max_gradient_norm);
        metrics.clipped_gradients.index_put_(
            {static_cast<int64_t>(epoch_index), static_cast<int64_t>(mini_batch_index)}, norm);
        optimizer.step();
      }
    }
  }
}

}  // namespace ai::ppo::train

struct NetworkImpl : torch::nn::Module {
  struct OutputType {
    torch::Tensor logits;
    torch::Tensor value;
  };
  NetworkImpl(int64_t frame_stack, int64_t hidden_size, int64_t action_size) {
    torso = register_module(
        "torso", torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(frame_stack, 32, 8).stride(4)),
                                       torch::nn::ReLU(), torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 4).stride(2)),
                                       torch::nn::ReLU(), torch::nn::Conv2d(torch::nn::Conv2dOptions(64, 64, 3)),
                                       torch::nn::ReLU(), torch::nn::Flatten(), torch::nn::Linear(3136, hidden_size),
                                       torch::nn::ReLU()));
    policy = register_module("policy", torch::nn::Linear(hidden_size, action_size));
    value = register_module("value", torch::nn::Linear(hidden_size, 1));
  }
  OutputType forward(torch::Tensor x) {
    auto h = torso->forward(x.to(torch::kFloat) / 255.0);
    return {policy->forward(h), value->forward(h)};
  }
  torch::nn::Sequential torso{nullptr};
  torch::nn::Linear policy{nullptr}, value{nullptr};
};
TORCH_MODULE(Network);

int main() {
  const int64_t horizon = 128, envs = 8, num_epochs = 4, num_mini_batches = 8;
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  Network network(4, 512, 4);
  network->to(device);
  torch::optim::Adam optimizer(network->parameters(), torch::optim::AdamOptions(2.5e-4).eps(1e-5));
  ai::ppo::train::Hyperparameters hp{0.1f, 0.5f, 0.01f, 0.5f, 2};
  ai::ppo::train::Metrics metrics(num_epochs, num_mini_batches, device);
  const int64_t n = horizon * envs;
  torch::Tensor indices = torch::empty({n}, torch::TensorOptions().dtype(torch::kLong).device(device));
  for (int rollout = 0; rollout < 1000; ++rollout) {
    ai::ppo::train::Batch batch{torch::randint(0, 255, {n, 4, 84, 84}, device).to(torch::kUInt8),
                                torch::randint(0, 4, {n}, torch::TensorOptions().dtype(torch::kLong).device(device)),
                                torch::zeros({n}, device), torch::randn({n}, device), torch::randn({n}, device),
                                torch::ones({n}, torch::TensorOptions().dtype(torch::kBool).device(device))};
    ai::ppo::train::train(network, optimizer, metrics, indices, batch, num_epochs, num_mini_batches, hp);
    std::cout << "rollout " << rollout << " loss " << metrics.loss.mean().item<float>() << std::endl;
  }
}
