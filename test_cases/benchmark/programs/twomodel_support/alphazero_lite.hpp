// Stand-in for the Alpha-Zero-implemented-through-Libtorch pieces the training
// function uses: board constants, the policy/value network and the self-play data
// files (boards, MCTS visit distributions, game outcomes).
#pragma once
#include <torch/torch.h>

#include <string>
#include <utility>
#include <vector>

#define BORAD_SIZE 15
#define NUM_CHANNELS 128
#define NUM_LAYERS 4
#define BATCH_SIZE 256
#define W_DECAY (1 - 0.01)

inline std::string str(int v) { return std::to_string(v); }

namespace customType {
using v_buff_type = std::vector<int>;
using p_buff_type = std::vector<std::vector<float>>;
using board_type = std::vector<std::vector<int>>;
}  // namespace customType

struct AlphaZeroNetImpl : torch::nn::Module {
  AlphaZeroNetImpl(unsigned num_layers, int64_t num_channels, unsigned n, unsigned action_size) {
    torch::nn::Sequential body;
    int64_t in = 3;
    for (unsigned i = 0; i < num_layers; ++i) {
      body->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(in, num_channels, 3).padding(1).bias(false)));
      body->push_back(torch::nn::BatchNorm2d(num_channels));
      body->push_back(torch::nn::ReLU());
      in = num_channels;
    }
    res_layers = register_module("res_layers", body);
    p_conv = register_module("p_conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(num_channels, 4, 1).bias(false)));
    p_fc = register_module("p_fc", torch::nn::Linear(4 * n * n, action_size));
    v_conv = register_module("v_conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(num_channels, 2, 1).bias(false)));
    v_fc1 = register_module("v_fc1", torch::nn::Linear(2 * n * n, 256));
    v_fc2 = register_module("v_fc2", torch::nn::Linear(256, 1));
  }
  std::pair<torch::Tensor, torch::Tensor> forward(torch::Tensor inputs) {
    auto out = res_layers->forward(inputs);
    auto p = torch::relu(p_conv(out));
    p = torch::log_softmax(p_fc(p.view({p.size(0), -1})), 1);
    auto v = torch::relu(v_conv(out));
    v = torch::tanh(v_fc2(torch::relu(v_fc1(v.view({v.size(0), -1})))));
    return {p, v};
  }
  torch::nn::Sequential res_layers{nullptr};
  torch::nn::Conv2d p_conv{nullptr}, v_conv{nullptr};
  torch::nn::Linear p_fc{nullptr}, v_fc1{nullptr}, v_fc2{nullptr};
};
TORCH_MODULE(AlphaZeroNet);

// Self-play samples after the eight board symmetries, already shuffled.
struct TrainData {
  std::vector<torch::Tensor> boards;   // each {1, 3, N, N}
  std::vector<torch::Tensor> policies; // each {1, N, N}
  customType::v_buff_type values;      // game outcome from the mover's view
};

inline TrainData load_train_data(int data_batch_num) {
  TrainData data;
  const int steps = 40 * data_batch_num;
  for (int i = 0; i < 8 * steps; ++i) {
    data.boards.push_back(torch::randint(0, 2, {1, 3, BORAD_SIZE, BORAD_SIZE}).to(torch::kFloat32));
    data.policies.push_back(torch::softmax(torch::randn({1, BORAD_SIZE * BORAD_SIZE}), 1).view({1, BORAD_SIZE, BORAD_SIZE}));
    data.values.push_back(i % 3 - 1);
  }
  return data;
}
