// AlphaZero (gomoku) training round: loads the current weights, decays the stored
// learning rate, and trains on the latest self-play data with `accum` batches of
// BATCH_SIZE samples per optimizer step (accum from the command line).
#include <torch/torch.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <vector>

#include "alphazero_lite.hpp"

using namespace std;
using namespace torch;
using namespace customType;

static inline Tensor alpha_loss(Tensor& log_ps, Tensor& vs, const Tensor& target_ps, const Tensor& target_vs) {
  return mean(pow(vs - target_vs, 2)) - mean(sum(target_ps * log_ps, 1));
}

static double read_and_decay_lr() {
  double lr = 0.001;
  ifstream reader("lr.txt");
  if (reader) reader >> lr;
  reader.close();
  lr *= W_DECAY;
  ofstream writer("lr.txt");
  writer << lr;
  writer.close();
  return lr;
}

AlphaZeroNet train(int current_weight, int data_batch_num, int accum) {
  AlphaZeroNet model(NUM_LAYERS, NUM_CHANNELS, BORAD_SIZE, BORAD_SIZE * BORAD_SIZE);
  load(model, "./weights/" + str(current_weight) + ".pt");
  if (torch::cuda::is_available()) model->to(kCUDA);

  double lr = read_and_decay_lr();
  cout << "current lr = " << lr << ", batches per step = " << accum << endl;
  // Each step sees `accum` batches of gradient, so the step size is scaled down to match.
  optim::Adam* optimizer = new optim::Adam(model->parameters(), optim::AdamOptions(lr / accum));

  TrainData data = load_train_data(data_batch_num);
  const int num_batches = static_cast<int>(data.boards.size()) / BATCH_SIZE;

  model->train();
  torch::AutoGradMode enable_grad(true);
  optimizer->zero_grad();
  double running = 0.0;
  for (int b = 0; b < num_batches; ++b) {
    const int pt = b * BATCH_SIZE;
    Tensor inputs = cat(vector<Tensor>(data.boards.begin() + pt, data.boards.begin() + pt + BATCH_SIZE), 0);
    Tensor ps = cat(vector<Tensor>(data.policies.begin() + pt, data.policies.begin() + pt + BATCH_SIZE), 0)
                    .view({-1, BORAD_SIZE * BORAD_SIZE});
    Tensor vs = torch::tensor(v_buff_type(data.values.begin() + pt, data.values.begin() + pt + BATCH_SIZE))
                    .to(kFloat32)
                    .unsqueeze(1);
    if (torch::cuda::is_available()) {
      inputs = inputs.to(kCUDA);
      ps = ps.to(kCUDA);
      vs = vs.to(kCUDA);
    }
    auto result = model->forward(inputs);
    Tensor loss = alpha_loss(result.first, result.second, ps, vs);
    loss.backward();
    running += loss.item<double>();

    if ((b + 1) % accum == 0 || b + 1 == num_batches) {
      optimizer->step();
      optimizer->zero_grad();
      std::cout << "step " << (b + 1) / accum << " loss:" << running / accum << std::endl;
      running = 0.0;
    }
  }

  save(model, "./weights/" + str(current_weight + 1) + ".pt");
  delete optimizer;
  return model;
}

int main(int argc, char** argv) {
  const int current_weight = argc > 1 ? atoi(argv[1]) : 0;
  const int data_batch_num = argc > 2 ? atoi(argv[2]) : 32;
  const int accum = argc > 3 ? atoi(argv[3]) : 4;
  train(current_weight, data_batch_num, accum);
}
