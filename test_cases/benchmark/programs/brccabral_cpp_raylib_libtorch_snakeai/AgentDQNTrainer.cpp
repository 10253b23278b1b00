// Snake agent trainer with a target network (double-network DQN). Every call of
// train_step() is one micro-batch; the optimizer steps after `accumulate_steps`
// calls, and the target network copies the online one every `target_sync_every`
// optimizer steps.
#include <torch/torch.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <random>
#include <vector>

#include "mlgames_lite.hpp"

class AgentDQNTrainer {
 public:
  AgentDQNTrainer(LinearNN* model_, LinearNN* target_, torch::optim::Optimizer* optimizer_, c10::DeviceType device_,
                  size_t batch_size_, double gamma_, int accumulate_steps_, int target_sync_every_)
      : model(model_), target(target_), optimizer(optimizer_), device(device_), gamma(gamma_),
        batch_size(batch_size_), accumulate_steps(accumulate_steps_), target_sync_every(target_sync_every_) {
    sync_target();
    for (auto& p : (*target)->parameters()) p.requires_grad_(false);
  }

  std::vector<int> get_action(const std::vector<double>& state) {
    const int epsilon = 80 - number_of_games;
    std::vector<int> action((*model)->output_size, 0);
    if (rand() % 200 < epsilon) {
      action[rand() % (*model)->output_size] = 1;
      return action;
    }
    torch::NoGradGuard no_grad;
    (*model)->eval();
    auto q = (*model)->forward(torch::tensor(state, torch::kDouble).to(device, torch::kFloat).unsqueeze(0));
    action[torch::argmax(q[0]).item().toInt()] = 1;
    return action;
  }

  void remember(const std::vector<double>& state, const std::vector<int>& action, int reward,
                const std::vector<double>& next_state, bool game_over) {
    memory_deque.push_back({(*model)->input_size, (*model)->output_size, state, action, reward, next_state, game_over});
  }

  void train_short_memory(const std::vector<double>& state, const std::vector<int>& action, int reward,
                          const std::vector<double>& next_state, bool game_over) {
    train_step(1, state, action, {reward}, next_state, {game_over});
  }

  void train_long_memory() {
    std::vector<MemoryData> samples;
    if (memory_deque.size() > batch_size) {
      samples.resize(batch_size);
      std::mt19937 gen(std::random_device{}());
      std::sample(memory_deque.begin(), memory_deque.end(), samples.begin(), batch_size, gen);
    } else {
      samples.insert(samples.end(), memory_deque.begin(), memory_deque.end());
    }
    std::vector<double> states, next_states;
    std::vector<int> actions, rewards;
    std::vector<bool> game_overs;
    for (auto& s : samples) {
      states.insert(states.end(), s.state.begin(), s.state.end());
      next_states.insert(next_states.end(), s.next_state.begin(), s.next_state.end());
      actions.insert(actions.end(), s.action.begin(), s.action.end());
      rewards.push_back(s.reward);
      game_overs.push_back(s.game_over);
    }
    train_step(samples.size(), states, actions, rewards, next_states, game_overs);
  }

  int number_of_games = 0;

 private:
  void sync_target() {
    torch::NoGradGuard no_grad;
    auto src = (*model)->parameters();
    auto dst = (*target)->parameters();
    for (size_t i = 0; i < src.size(); ++i) dst[i].copy_(src[i]);
  }

  void train_step(size_t count_samples, const std::vector<double>& old_states_, const std::vector<int>& actions_,
                  const std::vector<int>& rewards_, const std::vector<double>& new_states_,
                  const std::vector<bool>& dones_) {
    const auto n = static_cast<long>(count_samples);
    const auto old_states = torch::tensor(old_states_, torch::kDouble).reshape({n, (long)(*model)->input_size}).to(device, torch::kFloat);
    const auto actions = torch::tensor(actions_, torch::kInt).reshape({n, (long)(*model)->output_size}).to(device, torch::kLong);
    const auto new_states = torch::tensor(new_states_, torch::kDouble).reshape({n, (long)(*model)->input_size}).to(device, torch::kFloat);
    const auto rewards = torch::tensor(rewards_, torch::kInt).to(device, torch::kFloat);
    std::vector<float> done_flags(dones_.begin(), dones_.end());
    const auto dones = torch::tensor(done_flags).to(device);

    if (micro_step == 0) {
      optimizer->zero_grad();
    }

    (*model)->train();
    torch::Tensor q_taken = (*model)->forward(old_states).gather(1, actions.argmax(1, true)).squeeze(1);
    torch::Tensor q_target;
    {
      torch::NoGradGuard no_grad;
      // Online network picks the next action, target network evaluates it.
      auto next_actions = (*model)->forward(new_states).argmax(1, true);
      auto next_q = (*target)->forward(new_states).gather(1, next_actions).squeeze(1);
      q_target = rewards + gamma * next_q * (1.0 - dones);
    }
    torch::Tensor loss = criterion(q_taken, q_target);
    (loss / accumulate_steps).backward();

    if (++micro_step == accumulate_steps) {
      torch::nn::utils::clip_grad_value_((*model)->parameters(), 1.0);
      optimizer->step();
      micro_step = 0;
      if (++optimizer_steps % target_sync_every == 0) {
        sync_target();
      }
    }
  }

  LinearNN* model;
  LinearNN* target;
  torch::optim::Optimizer* optimizer;
  torch::nn::SmoothL1Loss criterion{};
  c10::DeviceType device;
  double gamma;
  LimitedDeque<MemoryData> memory_deque{MAX_MEMORY};
  size_t batch_size;
  int accumulate_steps;
  int target_sync_every;
  int micro_step = 0;
  long optimizer_steps = 0;
};

int main() {
  srand(42);
  c10::DeviceType device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto model = LinearNN(11, 3, std::vector<size_t>{256, 128});
  auto target = LinearNN(11, 3, std::vector<size_t>{256, 128});
  model->to(device);
  target->to(device);
  auto optimizer = torch::optim::Adam(model->parameters(), torch::optim::AdamOptions{0.0005});
  AgentDQNTrainer agent(&model, &target, &optimizer, device, 1000, 0.9, 8, 100);

  int best_score = 0, score = 0;
  std::vector<double> state(11, 0.0);
  for (int frame = 0; frame < 200000; ++frame) {
    auto action = agent.get_action(state);
    std::vector<double> next_state(11);
    for (auto& v : next_state) v = rand() % 2;
    const int reward = rand() % 15 == 0 ? 10 : (rand() % 50 == 0 ? -10 : 0);
    const bool game_over = reward < 0;
    score += reward > 0;
    agent.train_short_memory(state, action, reward, next_state, game_over);
    agent.remember(state, action, reward, next_state, game_over);
    state = next_state;
    if (game_over) {
      ++agent.number_of_games;
      agent.train_long_memory();
      if (score > best_score) {
        best_score = score;
        save_model(model, "snake_dqn.pt");
      }
      printf("Game %d Score %d Record %d\n", agent.number_of_games, score, best_score);
      score = 0;
    }
  }
}
