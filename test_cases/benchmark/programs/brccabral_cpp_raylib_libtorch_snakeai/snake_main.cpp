// Snake game training loop (examples/snake/main.cpp) with the long-memory update
// spread over several games: after each game the replay loss is backpropagated,
// and the Q-network steps once every GAMES_PER_UPDATE games. The trained network
// is exported in half precision for the Raylib player.
#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <vector>

#include "mlgames_lite.hpp"

#define LR (0.001)
#define GAMMA (0.9)
#define HIDDEN_SIZE (256)
#define BATCH_SIZE (1000)
#define GAMES_PER_UPDATE (4)
#define MAX_GAMES (2000)

struct SnakeGameAI {
  std::vector<double> get_state() {
    std::vector<double> s(11);
    for (auto& v : s) v = rand() % 2;
    return s;
  }
  std::pair<int, bool> get_step(int /*action*/) {
    ++frames;
    if (rand() % 120 == 0) return {-10, true};
    return {rand() % 20 == 0 ? 10 : 0, false};
  }
  int get_score() const { return frames / 50; }
  void reset() { frames = 0; }
  size_t get_state_size() const { return 11; }
  size_t get_action_count() const { return 3; }
  int frames = 0;
};

static torch::Tensor replay_loss(LinearNN& model, LimitedDeque<MemoryData>& memory, torch::Device device) {
  std::vector<MemoryData> samples;
  if (memory.size() > BATCH_SIZE) {
    samples.resize(BATCH_SIZE);
    std::mt19937 gen(std::random_device{}());
    std::sample(memory.begin(), memory.end(), samples.begin(), BATCH_SIZE, gen);
  } else {
    samples.assign(memory.begin(), memory.end());
  }
  const long n = static_cast<long>(samples.size());
  std::vector<double> states, next_states;
  std::vector<long> actions;
  std::vector<float> rewards, alive;
  for (auto& m : samples) {
    states.insert(states.end(), m.state.begin(), m.state.end());
    next_states.insert(next_states.end(), m.next_state.begin(), m.next_state.end());
    actions.push_back(std::max_element(m.action.begin(), m.action.end()) - m.action.begin());
    rewards.push_back(static_cast<float>(m.reward));
    alive.push_back(m.game_over ? 0.f : 1.f);
  }
  auto s = torch::tensor(states).reshape({n, -1}).to(device, torch::kFloat);
  auto s2 = torch::tensor(next_states).reshape({n, -1}).to(device, torch::kFloat);
  auto a = torch::tensor(actions).to(device);
  auto r = torch::tensor(rewards).to(device);
  auto mask = torch::tensor(alive).to(device);
  torch::Tensor target;
  {
    torch::NoGradGuard no_grad;
    target = r + GAMMA * std::get<0>(model->forward(s2).max(1)) * mask;
  }
  auto q = model->forward(s).gather(1, a.unsqueeze(1)).squeeze(1);
  return torch::mse_loss(q, target);
}

int main() {
  srand(time(NULL));
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  printf("Using %s\n", device.is_cuda() ? "CUDA" : "CPU");

  SnakeGameAI game;
  auto model = LinearNN(game.get_state_size(), game.get_action_count(), std::vector<size_t>{HIDDEN_SIZE});
  model->to(device);
  model->train();
  auto optimizer = torch::optim::Adam(model->parameters(), torch::optim::AdamOptions{LR});
  LimitedDeque<MemoryData> memory{MAX_MEMORY};

  auto apply_update = [&]() {
    torch::nn::utils::clip_grad_norm_(model->parameters(), 10.0);
    optimizer.step();
    optimizer.zero_grad();
  };

  int number_of_games = 0, best_score = 0;
  optimizer.zero_grad();
  while (number_of_games < MAX_GAMES) {
    auto state_old = game.get_state();
    std::vector<int> action(3, 0);
    if (rand() % 200 < 80 - number_of_games) {
      action[rand() % 3] = 1;
    } else {
      torch::NoGradGuard no_grad;
      auto q = model->forward(torch::tensor(state_old).to(device, torch::kFloat).unsqueeze(0));
      action[torch::argmax(q[0]).item().toInt()] = 1;
    }
    auto [reward, game_over] = game.get_step(std::max_element(action.begin(), action.end()) - action.begin());
    auto state_new = game.get_state();
    memory.push_back({game.get_state_size(), game.get_action_count(), state_old, action, reward, state_new, game_over});

    if (game_over) {
      ++number_of_games;
      int score = game.get_score();
      game.reset();

      torch::Tensor loss = replay_loss(model, memory, device);
      (loss / GAMES_PER_UPDATE).backward();
      if (number_of_games % GAMES_PER_UPDATE == 0) {
        apply_update();
      }

      if (score > best_score) {
        best_score = score;
        save_model(model, "snake_best.pt");
      }
      printf("Game %d Score %d Record %d loss %.4f\n", number_of_games, score, best_score, loss.item<float>());
    }
  }

  // Export for the Raylib player: half precision halves the file and the GPU memory.
  model->eval();
  model->to(torch::kHalf);
  save_model(model, "snake_fp16.pt");
  return 0;
}
