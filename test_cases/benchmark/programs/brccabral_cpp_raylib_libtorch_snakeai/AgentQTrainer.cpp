// Deep Q-learning agent of the Snake/Raylib games. The network is trained in half
// precision on the GPU; the long-memory replay batch is processed in micro-batches.
#include <torch/torch.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <random>
#include <vector>

#include "mlgames_lite.hpp"

class AgentQTrainer {
 public:
  AgentQTrainer(LinearNN* model_, torch::optim::Optimizer* optimizer_, c10::DeviceType device_, size_t batch_size_,
                size_t micro_batch_size_, double gamma_);

  std::vector<int> get_action(const std::vector<double>& state, size_t count_samples) const;
  void train_short_memory(const std::vector<double>& state, const std::vector<int>& action, int reward,
                          const std::vector<double>& next_state, bool game_over);
  void train_long_memory();
  void remember(const std::vector<double>& state, const std::vector<int>& action, int reward,
                const std::vector<double>& next_state, bool game_over);

  int number_of_games = 0;

 private:
  LinearNN* model;
  torch::optim::Optimizer* optimizer;
  torch::nn::MSELoss criterion{};
  c10::DeviceType device;
  double gamma;
  LimitedDeque<MemoryData> memory_deque{MAX_MEMORY};
  size_t batch_size{};
  size_t micro_batch_size{};

  std::vector<int> get_play(const std::vector<double>& state, size_t count_samples) const;
  torch::Tensor q_loss(size_t count_samples, const std::vector<double>& old_states_, const std::vector<int>& actions_,
                       const std::vector<int>& rewards_, const std::vector<double>& new_states_,
                       const std::vector<bool>& dones_);
};

AgentQTrainer::AgentQTrainer(LinearNN* model_, torch::optim::Optimizer* optimizer_, const c10::DeviceType device_,
                             size_t batch_size_, size_t micro_batch_size_, double gamma_)
    : model(model_), optimizer(optimizer_), device(device_), gamma(gamma_), batch_size(batch_size_),
      micro_batch_size(micro_batch_size_) {
  // Halves the memory of the network and its activations on the GPU.
  (*model)->to(device, torch::kHalf);
}

std::vector<int> AgentQTrainer::get_play(const std::vector<double>& state, size_t count_samples) const {
  const auto state0 = torch::tensor(state, torch::kDouble)
                          .reshape({(long)count_samples, (long)(*model)->input_size})
                          .to(device, torch::kHalf);
  (*model)->eval();
  torch::Tensor prediction;
  {
    torch::NoGradGuard no_grad;
    prediction = (*model)->forward(state0);
  }
  std::vector<int> action(prediction.size(0) * prediction.size(1), 0);
  for (int r = 0; r < prediction.size(0); ++r) {
    const int index = torch::argmax(prediction[r]).item().toInt();
    action[r * prediction.size(1) + index] = 1;
  }
  return action;
}

std::vector<int> AgentQTrainer::get_action(const std::vector<double>& state, size_t count_samples) const {
  const int epsilon = 80 - number_of_games;
  if (rand() % 200 < epsilon) {
    std::vector<int> action((*model)->output_size * count_samples, 0);
    action[rand() % (*model)->output_size] = 1;
    return action;
  }
  return get_play(state, count_samples);
}

void AgentQTrainer::remember(const std::vector<double>& state, const std::vector<int>& action, const int reward,
                             const std::vector<double>& next_state, const bool game_over) {
  memory_deque.push_back({(*model)->input_size, (*model)->output_size, state, action, reward, next_state, game_over});
}

torch::Tensor AgentQTrainer::q_loss(size_t count_samples, const std::vector<double>& old_states_,
                                    const std::vector<int>& actions_, const std::vector<int>& rewards_,
                                    const std::vector<double>& new_states_, const std::vector<bool>& dones_) {
  const auto opts = torch::TensorOptions().device(device).dtype(torch::kHalf);
  const torch::Tensor old_states =
      torch::tensor(old_states_, torch::kDouble).reshape({(long)count_samples, (long)(*model)->input_size}).to(opts);
  const torch::Tensor actions =
      torch::tensor(actions_, torch::kInt).reshape({(long)count_samples, (long)(*model)->output_size}).to(opts);
  const torch::Tensor new_states =
      torch::tensor(new_states_, torch::kDouble).reshape({(long)count_samples, (long)(*model)->input_size}).to(opts);

  (*model)->train();
  torch::Tensor pred_action = (*model)->forward(old_states);
  torch::Tensor target = pred_action.detach().clone();
  {
    torch::NoGradGuard no_grad;
    torch::Tensor next_q = std::get<0>((*model)->forward(new_states).max(1));
    for (size_t index = 0; index < dones_.size(); ++index) {
      double q_new = rewards_[index];
      const long max_index = torch::argmax(actions[index]).item().toLong();
      if (!dones_[index]) q_new += gamma * next_q[index].item().toDouble();
      target[index][max_index] = q_new;
    }
  }
  return criterion(pred_action, target);
}

void AgentQTrainer::train_short_memory(const std::vector<double>& state, const std::vector<int>& action, int reward,
                                       const std::vector<double>& next_state, bool game_over) {
  optimizer->zero_grad();
  torch::Tensor loss = q_loss(1, state, action, {reward}, next_state, {game_over});
  loss.backward();
  optimizer->step();
}

void AgentQTrainer::train_long_memory() {
  std::vector<MemoryData> samples;
  if (memory_deque.size() > batch_size) {
    samples.resize(batch_size);
    std::mt19937 gen(std::random_device{}());
    std::sample(memory_deque.begin(), memory_deque.end(), samples.begin(), batch_size, gen);
  } else {
    samples.insert(samples.end(), memory_deque.begin(), memory_deque.end());
  }
  const size_t sample_size = samples.size();
  const size_t num_micro = (sample_size + micro_batch_size - 1) / micro_batch_size;

  optimizer->zero_grad();
  for (size_t begin = 0; begin < sample_size; begin += micro_batch_size) {
    const size_t end = std::min(sample_size, begin + micro_batch_size);
    std::vector<double> states, next_states;
    std::vector<int> actions, rewards;
    std::vector<bool> game_overs;
    for (size_t i = begin; i < end; ++i) {
      states.insert(states.end(), samples[i].state.begin(), samples[i].state.end());
      next_states.insert(next_states.end(), samples[i].next_state.begin(), samples[i].next_state.end());
      actions.insert(actions.end(), samples[i].action.begin(), samples[i].action.end());
      rewards.push_back(samples[i].reward);
      game_overs.push_back(samples[i].game_over);
    }
    torch::Tensor loss = q_loss(end - begin, states, actions, rewards, next_states, game_overs);
    (loss / static_cast<double>(num_micro)).backward();
  }
  optimizer->step();
}

int main() {
  c10::DeviceType device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto model = LinearNN(11, 3, std::vector<size_t>{256});
  auto optimizer = torch::optim::Adam(model->parameters(), torch::optim::AdamOptions{0.001});
  AgentQTrainer agent(&model, &optimizer, device, 1000, 125, 0.9);

  std::vector<double> state(11, 0.0);
  for (int move = 0; move < 100000; ++move) {
    auto action = agent.get_action(state, 1);
    std::vector<double> next_state(11, static_cast<double>(rand() % 2));
    const int reward = rand() % 10 == 0 ? 10 : 0;
    const bool game_over = rand() % 100 == 0;
    agent.train_short_memory(state, action, reward, next_state, game_over);
    agent.remember(state, action, reward, next_state, game_over);
    state = next_state;
    if (game_over) {
      ++agent.number_of_games;
      agent.train_long_memory();
      save_model(model);
    }
  }
}
