// Q-learning agent for the mlgames (Birdy, Dino, Snake) examples. Short-memory
// updates from single moves are noisy, so train_step() now only applies the
// optimizer every `update_every` calls.
#include <torch/torch.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <vector>

#include "mlgames_lite.hpp"

class AgentTrainer {
 public:
  AgentTrainer(LinearNN* model_, torch::optim::Optimizer* optimizer_, c10::DeviceType device_, size_t batch_size_,
               double gamma_, int update_every_)
      : model(model_), optimizer(optimizer_), device(device_), gamma(gamma_), batch_size(batch_size_),
        update_every(update_every_) {}

  std::vector<int> get_action(const std::vector<double>& state) {
    const int epsilon = 80 - number_of_games;
    std::vector<int> action((*model)->output_size, 0);
    if (rand() % 200 < epsilon) {
      action[rand() % (*model)->output_size] = 1;
      return action;
    }
    const auto state0 = torch::tensor(state, torch::kDouble).reshape({1, (long)(*model)->input_size}).to(device);
    (*model)->eval();
    torch::Tensor prediction;
    {
      torch::NoGradGuard no_grad;
      prediction = (*model)->forward(state0);
    }
    action[torch::argmax(prediction[0]).item().toInt()] = 1;
    return action;
  }

  void train_short_memory(const std::vector<double>& state, const std::vector<int>& action, int reward,
                          const std::vector<double>& next_state, bool game_over) {
    train_step(1, state, action, {reward}, next_state, {game_over});
  }

  void remember(const std::vector<double>& state, const std::vector<int>& action, const int reward,
                const std::vector<double>& next_state, const bool game_over) {
    memory_deque.push_back({(*model)->input_size, (*model)->output_size, state, action, reward, next_state, game_over});
  }

  int number_of_games = 0;

 private:
  void train_step(size_t count_samples, const std::vector<double>& old_states_, const std::vector<int>& actions_,
                  const std::vector<int>& rewards_, const std::vector<double>& new_states_,
                  const std::vector<bool>& dones_) {
    const torch::Tensor old_states =
        torch::tensor(old_states_, torch::kDouble).reshape({(long)count_samples, (long)(*model)->input_size}).to(device);
    const torch::Tensor actions = torch::tensor(actions_, torch::kInt)
                                      .reshape({(long)count_samples, (long)(*model)->output_size})
                                      .to(device, torch::kDouble);
    const torch::Tensor new_states =
        torch::tensor(new_states_, torch::kDouble).reshape({(long)count_samples, (long)(*model)->input_size}).to(device);

    (*model)->train();
    torch::Tensor pred_action = (*model)->forward(old_states);

    (*model)->eval();
    torch::Tensor target = pred_action.detach().clone();
    {
      torch::NoGradGuard no_grad;
      for (size_t index = 0; index < dones_.size(); ++index) {
        double q_new = rewards_[index];
        const long max_index = torch::argmax(actions[index]).item().toLong();
        if (!dones_[index]) {
          q_new += gamma * (*model)->forward(new_states[index]).max().item().toDouble();
        }
        target[index][max_index] = q_new;
      }
    }

    (*model)->train();
    optimizer->zero_grad();
    const torch::Tensor loss = criterion(pred_action, target) / update_every;
    loss.backward();
    if (++calls_since_update >= update_every) {
      optimizer->step();
      calls_since_update = 0;
    }
  }

  LinearNN* model;
  torch::optim::Optimizer* optimizer;
  torch::nn::MSELoss criterion{};
  c10::DeviceType device;
  double gamma;
  LimitedDeque<MemoryData> memory_deque{MAX_MEMORY};
  size_t batch_size{};
  int update_every;
  int calls_since_update = 0;
};

int main() {
  srand(7);
  c10::DeviceType device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto model = LinearNN(8, 2, std::vector<size_t>{128});
  model->to(device, torch::kDouble);
  auto optimizer = torch::optim::Adam(model->parameters(), torch::optim::AdamOptions{0.001});
  AgentTrainer agent(&model, &optimizer, device, 1000, 0.9, 8);
  std::vector<double> state(8, 0.0);
  for (int frame = 0; frame < 100000; ++frame) {
    auto action = agent.get_action(state);
    std::vector<double> next_state(8);
    for (auto& v : next_state) v = (rand() % 100) / 100.0;
    const bool game_over = rand() % 200 == 0;
    const int reward = game_over ? -10 : 1;
    agent.train_short_memory(state, action, reward, next_state, game_over);
    agent.remember(state, action, reward, next_state, game_over);
    state = next_state;
    if (game_over) ++agent.number_of_games;
  }
}
