// ALE PPO update with a GradientAccumulator that keeps a float32 running sum per
// named parameter (the network may run its forward pass in reduced precision on the
// CUDA-graph path); the sum is written back into .grad once per optimizer step.
#include <torch/torch.h>

#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace ai::ppo::train {

struct Hyperparameters {
  float clip_param = 0.1f;
  float value_loss_coef = 0.5f;
  float entropy_coef = 0.01f;
  float max_gradient_norm = 0.5f;
  int64_t accumulation_steps = 4;
};

struct Batch {
  torch::Tensor observations, actions, log_probabilities, advantages, returns;
  Batch slice(int64_t s, int64_t e) const {
    return {observations.slice(0, s, e), actions.slice(0, s, e), log_probabilities.slice(0, s, e),
            advantages.slice(0, s, e), returns.slice(0, s, e)};
  }
};

struct NetworkImpl : torch::nn::Module {
  NetworkImpl() {
    encoder = register_module("encoder", torch::nn::Sequential(torch::nn::Flatten(), torch::nn::Linear(4 * 84 * 84, 256),
                                                               torch::nn::ReLU()));
    logits = register_module("logits", torch::nn::Linear(256, 4));
    value = register_module("value", torch::nn::Linear(256, 1));
  }
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& x) {
    auto h = encoder->forward(x.to(torch::kFloat) / 255.0);
    return {torch::log_softmax(logits->forward(h), -1), value->forward(h).squeeze(-1)};
  }
  torch::nn::Sequential encoder{nullptr};
  torch::nn::Linear logits{nullptr}, value{nullptr};
};
TORCH_MODULE(Network);

class GradientAccumulator {
 public:
  explicit GradientAccumulator(Network& network) : network(network) {
    for (auto& item : network->named_parameters()) {
      sums[item.key()] = torch::zeros_like(item.value(), torch::kFloat32);
    }
  }
  void accumulate() {
    for (auto& item : network->named_parameters()) {
      if (item.value().grad().defined()) sums[item.key()] += item.value().grad().to(torch::kFloat32);
    }
  }
  void write_back() {
    for (auto& item : network->named_parameters()) {
      item.value().mutable_grad() = sums[item.key()].to(item.value().scalar_type());
      sums[item.key()].zero_();
    }
  }

 private:
  Network& network;
  std::map<std::string, torch::Tensor> sums;
};

float train(Network& network, torch::optim::Optimizer& optimizer, const Batch& batch, size_t num_epochs,
            size_t num_mini_batches, const Hyperparameters& hp) {
  network->train();
  GradientAccumulator accumulator(network);
  const int64_t size = batch.observations.size(0);
  const int64_t mb_size = size / static_cast<int64_t>(num_mini_batches);
  float last = 0.f;
  size_t counter = 0;
  for (size_t epoch = 0; epoch < num_epochs; ++epoch) {
    for (size_t i = 0; i < num_mini_batches; ++i) {
      Batch mb = batch.slice(i * mb_size, (i + 1) * mb_size);
      auto [log_probs, values] = network->forward(mb.observations);
      auto lp = log_probs.gather(1, mb.actions.unsqueeze(1)).squeeze(1);
      auto ratio = (lp - mb.log_probabilities).exp();
      auto surrogate = torch::min(ratio * mb.advantages, ratio.clamp(1 - hp.clip_param, 1 + hp.clip_param) * mb.advantages);
      auto entropy = -(log_probs.exp() * log_probs).sum(-1);
      auto loss = (-surrogate + hp.value_loss_coef * (values - mb.returns).pow(2) - hp.entropy_coef * entropy).mean();
      (loss / static_cast<double>(hp.accumulation_steps)).backward();
      accumulator.accumulate();
      last = loss.item<float>();

      if (++counter % hp.accumulation_steps == 0) {
        accumulator.write_back();
        torch::nn::utils::clip_grad_norm_(network->parameters(), hp.max_gradient_norm);
        optimizer.step();
        optimizer.zero_grad();
      }
    }
  }
  return last;
}

}  // namespace ai::ppo::train

int main() {
  ai::ppo::train::Network network;
  torch::optim::Adam optimizer(network->parameters(), torch::optim::AdamOptions(2.5e-4).eps(1e-5));
  ai::ppo::train::Hyperparameters hp;
  const int64_t n = 1024;
  for (int rollout = 0; rollout < 2000; ++rollout) {
    ai::ppo::train::Batch batch{torch::randint(0, 256, {n, 4, 84, 84}).to(torch::kUInt8), torch::randint(0, 4, {n}),
                                torch::full({n}, -1.386f), torch::randn({n}), torch::randn({n})};
    float loss = ai::ppo::train::train(network, optimizer, batch, 4, 8, hp);
    if (rollout % 10 == 0) std::cout << "rollout " << rollout << " loss " << loss << std::endl;
  }
}
