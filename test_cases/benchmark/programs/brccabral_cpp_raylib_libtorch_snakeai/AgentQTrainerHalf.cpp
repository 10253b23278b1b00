// Q-learning agent of the Raylib games with a half-precision network on the GPU and
// float32 master weights: long-memory batches are processed in micro-batches, each
// micro-batch's half gradient is moved into a float32 buffer, and the optimizer
// updates the float32 masters, which are then copied back into the network.
#include <torch/torch.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <vector>

#include "mlgames_lite.hpp"

class AgentQTrainerHalf {
 public:
  AgentQTrainerHalf(LinearNN* model_, c10::DeviceType device_, size_t batch_size_, size_t micro_batch_size_,
                    double gamma_, double lr)
      : model(model_), device(device_), gamma(gamma_), batch_size(batch_size_), micro_batch_size(micro_batch_size_) {
    for (auto& p : (*model)->parameters()) {
      masters.push_back(p.detach().to(device, torch::kFloat).clone().requires_grad_(true));
    }
    (*model)->to(device, torch::kHalf);
    for (auto& m : masters) grad_buffers.push_back(torch::zeros_like(m));
    optimizer = std::make_unique<torch::optim::Adam>(masters, torch::optim::AdamOptions(lr));
  }

  void remember(const std::vector<double>& state, const std::vector<int>& action, int reward,
                const std::vector<double>& next_state, bool game_over) {
    memory_deque.push_back({(*model)->input_size, (*model)->output_size, state, action, reward, next_state, game_over});
  }

  void train_long_memory() {
    std::vector<MemoryData> samples;
    if (memory_deque.size() > batch_size) {
      samples.resize(batch_size);
      std::mt19937 gen(std::random_device{}());
      std::sample(memory_deque.begin(), memory_deque.end(), samples.begin(), batch_size, gen);
    } else {
      samples.assign(memory_deque.begin(), memory_deque.end());
    }
    std::vector<std::vector<MemoryData>> micro_batches;
    for (size_t begin = 0; begin < samples.size(); begin += micro_batch_size) {
      micro_batches.emplace_back(samples.begin() + begin,
                                 samples.begin() + std::min(samples.size(), begin + micro_batch_size));
    }

    auto params = (*model)->parameters();
    for (auto& mb : micro_batches) {
      torch::Tensor loss = q_loss(mb) / static_cast<double>(micro_batches.size());
      loss.backward();
      for (size_t k = 0; k < params.size(); ++k) {
        if (!params[k].grad().defined()) continue;
        grad_buffers[k].add_(params[k].grad().to(torch::kFloat));
        params[k].mutable_grad().reset();
      }
    }

    for (size_t k = 0; k < masters.size(); ++k) {
      masters[k].mutable_grad() = grad_buffers[k].clone();
      grad_buffers[k].zero_();
    }
    optimizer->step();
    optimizer->zero_grad();
    {
      torch::NoGradGuard no_grad;
      for (size_t k = 0; k < params.size(); ++k) params[k].copy_(masters[k].to(torch::kHalf));
    }
  }

  int number_of_games = 0;

 private:
  torch::Tensor q_loss(const std::vector<MemoryData>& mb) {
    const long n = static_cast<long>(mb.size());
    std::vector<double> states, next_states;
    std::vector<long> acts;
    std::vector<float> rewards, alive;
    for (auto& m : mb) {
      states.insert(states.end(), m.state.begin(), m.state.end());
      next_states.insert(next_states.end(), m.next_state.begin(), m.next_state.end());
      acts.push_back(std::max_element(m.action.begin(), m.action.end()) - m.action.begin());
      rewards.push_back(static_cast<float>(m.reward));
      alive.push_back(m.game_over ? 0.f : 1.f);
    }
    auto opts = torch::TensorOptions().device(device).dtype(torch::kHalf);
    auto s = torch::tensor(states).reshape({n, -1}).to(opts);
    auto s2 = torch::tensor(next_states).reshape({n, -1}).to(opts);
    auto a = torch::tensor(acts).to(device);
    auto r = torch::tensor(rewards).to(device);
    auto mask = torch::tensor(alive).to(device);
    torch::Tensor target;
    {
      torch::NoGradGuard no_grad;
      target = r + gamma * std::get<0>((*model)->forward(s2).max(1)).to(torch::kFloat) * mask;
    }
    auto q = (*model)->forward(s).gather(1, a.unsqueeze(1)).squeeze(1).to(torch::kFloat);
    return torch::mse_loss(q, target);
  }

  LinearNN* model;
  c10::DeviceType device;
  double gamma;
  size_t batch_size, micro_batch_size;
  std::vector<torch::Tensor> masters, grad_buffers;
  std::unique_ptr<torch::optim::Adam> optimizer;
  LimitedDeque<MemoryData> memory_deque{MAX_MEMORY};
};

int main() {
  c10::DeviceType device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto model = LinearNN(11, 3, std::vector<size_t>{512, 512});
  AgentQTrainerHalf agent(&model, device, 4000, 500, 0.9, 0.001);
  std::vector<double> state(11, 0.0);
  for (int move = 0; move < 200000; ++move) {
    std::vector<int> action(3, 0);
    action[rand() % 3] = 1;
    std::vector<double> next_state(11);
    for (auto& v : next_state) v = rand() % 2;
    const bool game_over = rand() % 150 == 0;
    agent.remember(state, action, game_over ? -10 : (rand() % 12 == 0 ? 10 : 0), next_state, game_over);
    state = next_state;
    if (game_over) {
      ++agent.number_of_games;
      agent.train_long_memory();
    }
  }
}
