// AlphaZero gomoku trainer with SGD + momentum and L2 regularisation (as in the
// AlphaZero paper). A training step is an inner loop over `accum` consecutive
// self-play batches.
#include <torch/torch.h>

#include <fstream>
#include <iostream>
#include <vector>

#include "alphazero_lite.hpp"

using namespace std;
using namespace torch;
using namespace customType;

struct TrainConfig {
  double lr = 0.02;
  double momentum = 0.9;
  double l2 = 1e-4;
  int accum = 4;
  int data_batch_num = 64;
};

static Tensor alpha_loss(const Tensor& log_ps, const Tensor& vs, const Tensor& target_ps, const Tensor& target_vs) {
  return mean(pow(vs - target_vs, 2)) - mean(sum(target_ps * log_ps, 1));
}

static void read_lr(TrainConfig& cfg) {
  ifstream reader("lr.txt");
  if (reader) reader >> cfg.lr;
  cfg.lr *= W_DECAY;
  ofstream writer("lr.txt");
  writer << cfg.lr;
}

void train(int current_weight, TrainConfig cfg) {
  AlphaZeroNet model(NUM_LAYERS, NUM_CHANNELS, BORAD_SIZE, BORAD_SIZE * BORAD_SIZE);
  load(model, "./weights/" + str(current_weight) + ".pt");
  read_lr(cfg);

  // L2 is applied per batch of the step, so it is shared out over them
  optim::SGD optimizer(model->parameters(),
                       optim::SGDOptions(cfg.lr).momentum(cfg.momentum).weight_decay(cfg.l2 / cfg.accum));

  TrainData data = load_train_data(cfg.data_batch_num);
  const int num_batches = static_cast<int>(data.boards.size()) / BATCH_SIZE;
  const int num_steps = num_batches / cfg.accum;
  cout << "current lr = " << cfg.lr << ", " << num_steps << " steps of " << cfg.accum << " batches" << endl;

  model->train();
  for (int s = 0; s < num_steps; ++s) {
    optimizer.zero_grad();
    double step_loss = 0.0;
    for (int k = 0; k < cfg.accum; ++k) {
      const int pt = (s * cfg.accum + k) * BATCH_SIZE;
      Tensor inputs = cat(vector<Tensor>(data.boards.begin() + pt, data.boards.begin() + pt + BATCH_SIZE), 0);
      Tensor ps = cat(vector<Tensor>(data.policies.begin() + pt, data.policies.begin() + pt + BATCH_SIZE), 0)
                      .view({-1, BORAD_SIZE * BORAD_SIZE});
      Tensor vs = torch::tensor(v_buff_type(data.values.begin() + pt, data.values.begin() + pt + BATCH_SIZE))
                      .to(kFloat32)
                      .unsqueeze(1);
      auto result = model->forward(inputs);
      Tensor loss = alpha_loss(result.first, result.second, ps, vs) / cfg.accum;
      loss.backward();
      step_loss += loss.item<double>();
    }
    optimizer.step();
    if (s % 10 == 0) cout << "step " << s << " loss:" << step_loss << endl;
  }
  save(model, "./weights/" + str(current_weight + 1) + ".pt");
}

int main(int argc, char** argv) {
  TrainConfig cfg;
  if (argc > 2) cfg.data_batch_num = atoi(argv[2]);
  train(argc > 1 ? atoi(argv[1]) : 0, cfg);
}
