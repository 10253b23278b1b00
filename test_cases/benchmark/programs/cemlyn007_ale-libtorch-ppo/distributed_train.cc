// Data-parallel learner for the ALE PPO agent: every process owns a slice of the
// environments, computes the PPO loss on its rollouts, and the processes average
// gradients over Gloo before each optimizer step.
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <vector>

namespace ai::ppo {

struct Hyperparameters {
  float clip_param = 0.1f;
  float value_loss_coef = 0.5f;
  float entropy_coef = 0.01f;
  float max_gradient_norm = 0.5f;
  int64_t num_epochs = 4;
  int64_t num_mini_batches = 8;
  int64_t accumulation_steps = 2;
};

struct Batch {
  torch::Tensor observations, actions, log_probabilities, advantages, returns;
  Batch select(const torch::Tensor& idx) const {
    return {observations.index_select(0, idx), actions.index_select(0, idx), log_probabilities.index_select(0, idx),
            advantages.index_select(0, idx), returns.index_select(0, idx)};
  }
};

struct NetworkImpl : torch::nn::Module {
  explicit NetworkImpl(int64_t action_size) {
    body = register_module("body", torch::nn::Sequential(
                                       torch::nn::Conv2d(torch::nn::Conv2dOptions(4, 32, 8).stride(4)), torch::nn::ReLU(),
                                       torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 64, 4).stride(2)), torch::nn::ReLU(),
                                       torch::nn::Flatten(), torch::nn::Linear(5184, 512), torch::nn::ReLU()));
    logits = register_module("logits", torch::nn::Linear(512, action_size));
    value = register_module("value", torch::nn::Linear(512, 1));
  }
  std::pair<torch::Tensor, torch::Tensor> forward(torch::Tensor x) {
    auto h = body->forward(x.to(torch::kFloat) / 255.0);
    return {torch::log_softmax(logits->forward(h), -1), value->forward(h).squeeze(-1)};
  }
  torch::nn::Sequential body{nullptr};
  torch::nn::Linear logits{nullptr}, value{nullptr};
};
TORCH_MODULE(Network);

class Learner {
 public:
  Learner(c10::intrusive_ptr<c10d::ProcessGroup> process_group, Network network, Hyperparameters hp, double lr)
      : process_group_(std::move(process_group)),
        world_size_(process_group_->getSize()),
        network_(std::move(network)),
        hp_(hp),
        optimizer_(network_->parameters(), torch::optim::AdamOptions(lr).eps(1e-5)) {}

  float train(const Batch& batch) {
    network_->train();
    const int64_t size = batch.observations.size(0);
    const int64_t mini_batch_size = size / hp_.num_mini_batches;
    float total = 0.f;
    optimizer_.zero_grad();
    for (int64_t epoch = 0; epoch < hp_.num_epochs; ++epoch) {
      auto perm = torch::randperm(size, torch::TensorOptions().dtype(torch::kLong));
      for (int64_t i = 0; i < hp_.num_mini_batches; ++i) {
        Batch mb = batch.select(perm.narrow(0, i * mini_batch_size, mini_batch_size));
        auto loss = compute_loss(mb);
        auto scaled = loss / static_cast<double>(hp_.accumulation_steps * world_size_);
        scaled.backward();
        total += loss.item<float>();

        if (i % hp_.accumulation_steps == hp_.accumulation_steps - 1) {
          average_gradients();
          torch::nn::utils::clip_grad_norm_(network_->parameters(), hp_.max_gradient_norm);
          optimizer_.step();
          optimizer_.zero_grad();
        }
      }
    }
    return total / static_cast<float>(hp_.num_epochs * hp_.num_mini_batches);
  }

 private:
  torch::Tensor compute_loss(const Batch& mb) {
    auto [log_probs, values] = network_->forward(mb.observations);
    auto lp = log_probs.gather(1, mb.actions.unsqueeze(1)).squeeze(1);
    auto ratio = (lp - mb.log_probabilities).exp();
    auto clipped = torch::min(ratio * mb.advantages,
                              ratio.clamp(1 - hp_.clip_param, 1 + hp_.clip_param) * mb.advantages);
    auto entropy = -(log_probs.exp() * log_probs).sum(-1);
    return (-clipped + hp_.value_loss_coef * (values - mb.returns).pow(2) - hp_.entropy_coef * entropy).mean();
  }

  // Sum the gradients of all processes, then divide by their number.
  void average_gradients() {
    for (auto& p : network_->parameters()) {
      if (!p.grad().defined()) continue;
      std::vector<torch::Tensor> tensors{p.grad()};
      process_group_->allreduce(tensors)->wait();
      p.mutable_grad().div_(world_size_);
    }
  }

  c10::intrusive_ptr<c10d::ProcessGroup> process_group_;
  int world_size_;
  Network network_;
  Hyperparameters hp_;
  torch::optim::Adam optimizer_;
};

}  // namespace ai::ppo

int main() {
  const int rank = std::atoi(std::getenv("RANK") ? std::getenv("RANK") : "0");
  const int world = std::atoi(std::getenv("WORLD_SIZE") ? std::getenv("WORLD_SIZE") : "1");
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/ale_ppo_store", world);
  auto options = c10d::ProcessGroupGloo::Options::create();
  options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world, options);

  torch::manual_seed(42);
  ai::ppo::Network network(4);
  ai::ppo::Learner learner(pg, network, ai::ppo::Hyperparameters{}, 2.5e-4);
  torch::manual_seed(42 + rank);
  const int64_t n = 8 * 128;
  for (int rollout = 0; rollout < 2000; ++rollout) {
    ai::ppo::Batch batch{torch::randint(0, 256, {n, 4, 84, 84}).to(torch::kUInt8), torch::randint(0, 4, {n}),
                         torch::full({n}, -1.386f), torch::randn({n}), torch::randn({n})};
    float loss = learner.train(batch);
    if (rank == 0 && rollout % 10 == 0) std::cout << "rollout " << rollout << " loss " << loss << std::endl;
  }
}
