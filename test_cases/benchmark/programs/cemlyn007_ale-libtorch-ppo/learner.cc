// Multi-process PPO update for the ALE agent, following ai::ppo::train's
// mini_batch_update/train split: each minibatch is processed in `micro_batches`
// slices (to bound activation memory), then the slices' summed gradient is averaged
// across processes, clipped and applied.
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <vector>

namespace ai::ppo::train {

struct Hyperparameters {
  float clip_param;
  float value_loss_coef;
  float entropy_coef;
  float max_gradient_norm;
  int64_t micro_batches;
};

struct Batch {
  torch::Tensor observations, actions, log_probabilities, advantages, returns;
  Batch slice(int64_t start, int64_t end) const {
    return {observations.slice(0, start, end), actions.slice(0, start, end), log_probabilities.slice(0, start, end),
            advantages.slice(0, start, end), returns.slice(0, start, end)};
  }
};

struct NetworkImpl : torch::nn::Module {
  NetworkImpl() {
    body = register_module("body", torch::nn::Sequential(torch::nn::Flatten(), torch::nn::Linear(4 * 84 * 84, 256),
                                                         torch::nn::ReLU()));
    logits = register_module("logits", torch::nn::Linear(256, 6));
    value = register_module("value", torch::nn::Linear(256, 1));
  }
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& x) {
    auto h = body->forward(x.to(torch::kFloat) / 255.0);
    return {torch::log_softmax(logits->forward(h), -1), value->forward(h).squeeze(-1)};
  }
  torch::nn::Sequential body{nullptr};
  torch::nn::Linear logits{nullptr}, value{nullptr};
};
TORCH_MODULE(Network);

torch::Tensor ppo_loss(Network& network, const Batch& b, const Hyperparameters& hp) {
  auto [log_probs, values] = network->forward(b.observations);
  auto lp = log_probs.gather(1, b.actions.unsqueeze(1)).squeeze(1);
  auto ratio = (lp - b.log_probabilities).exp();
  auto surrogate = torch::min(ratio * b.advantages, ratio.clamp(1 - hp.clip_param, 1 + hp.clip_param) * b.advantages);
  auto entropy = -(log_probs.exp() * log_probs).sum(-1);
  return (-surrogate + hp.value_loss_coef * (values - b.returns).pow(2) - hp.entropy_coef * entropy).mean();
}

// Flattens all gradients into one buffer, sums it over the processes and writes the
// mean back into .grad.
void allreduce_mean_gradients(Network& network, c10d::ProcessGroup& process_group) {
  std::vector<torch::Tensor> flat;
  for (auto& p : network->parameters()) flat.push_back(p.grad().reshape(-1));
  std::vector<torch::Tensor> buffer{torch::cat(flat)};
  process_group.allreduce(buffer)->wait();
  buffer[0].div_(process_group.getSize());
  int64_t offset = 0;
  for (auto& p : network->parameters()) {
    p.mutable_grad().copy_(buffer[0].slice(0, offset, offset + p.numel()).view_as(p));
    offset += p.numel();
  }
}

float mini_batch_update(Network& network, torch::optim::Optimizer& optimizer, c10d::ProcessGroup& process_group,
                        const Batch& mini_batch, const Hyperparameters& hp) {
  optimizer.zero_grad();
  const int64_t size = mini_batch.observations.size(0);
  const int64_t slice_size = size / hp.micro_batches;
  float loss_sum = 0.f;
  int64_t m = 0;
  while (m < hp.micro_batches) {
    Batch part = mini_batch.slice(m * slice_size, (m + 1) * slice_size);
    auto loss = ppo_loss(network, part, hp);
    (loss * (1.0 / hp.micro_batches)).backward();
    loss_sum += loss.item<float>();
    ++m;
  }
  allreduce_mean_gradients(network, process_group);
  torch::nn::utils::clip_grad_norm_(network->parameters(), hp.max_gradient_norm);
  optimizer.step();
  return loss_sum / hp.micro_batches;
}

void train(Network& network, torch::optim::Optimizer& optimizer, c10d::ProcessGroup& process_group, Batch& batch,
           size_t num_epochs, size_t num_mini_batches, const Hyperparameters& hp) {
  network->train();
  const int64_t size = batch.observations.size(0);
  const int64_t mini_batch_size = size / static_cast<int64_t>(num_mini_batches);
  for (size_t epoch = 0; epoch < num_epochs; ++epoch) {
    auto perm = torch::randperm(size, torch::TensorOptions().dtype(torch::kLong));
    Batch shuffled{batch.observations.index_select(0, perm), batch.actions.index_select(0, perm),
                   batch.log_probabilities.index_select(0, perm), batch.advantages.index_select(0, perm),
                   batch.returns.index_select(0, perm)};
    for (size_t i = 0; i < num_mini_batches; ++i) {
      const int64_t start = static_cast<int64_t>(i) * mini_batch_size;
      float loss = mini_batch_update(network, optimizer, process_group, shuffled.slice(start, start + mini_batch_size), hp);
      if (process_group.getRank() == 0 && i == 0) std::cout << "epoch " << epoch << " loss " << loss << std::endl;
    }
  }
}

}  // namespace ai::ppo::train

int main() {
  const int rank = std::atoi(std::getenv("RANK") ? std::getenv("RANK") : "0");
  const int world = std::atoi(std::getenv("WORLD_SIZE") ? std::getenv("WORLD_SIZE") : "1");
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/ale_learner_store", world);
  auto options = c10d::ProcessGroupGloo::Options::create();
  options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  c10d::ProcessGroupGloo process_group(store, rank, world, options);

  torch::manual_seed(3);
  ai::ppo::train::Network network;
  torch::optim::Adam optimizer(network->parameters(), torch::optim::AdamOptions(2.5e-4).eps(1e-5));
  ai::ppo::train::Hyperparameters hp{0.1f, 0.5f, 0.01f, 0.5f, 4};
  const int64_t n = 1024;
  for (int rollout = 0; rollout < 1000; ++rollout) {
    ai::ppo::train::Batch batch{torch::randint(0, 256, {n, 4, 84, 84}).to(torch::kUInt8), torch::randint(0, 6, {n}),
                                torch::full({n}, -1.79f), torch::randn({n}), torch::randn({n})};
    ai::ppo::train::train(network, optimizer, process_group, batch, 4, 4, hp);
  }
}
