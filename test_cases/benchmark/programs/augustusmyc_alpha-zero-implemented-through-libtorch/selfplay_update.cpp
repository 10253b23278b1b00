// AlphaZero (gomoku) network update after a self-play round, with plain SGD and
// momentum. Gradients of `accum` batches are summed in .grad and one SGD step is
// taken per group; the step size per batch is lr / accum.
#include <torch/torch.h>

#include <fstream>
#include <iostream>
#include <vector>

#include "alphazero_lite.hpp"

using namespace std;
using namespace torch;
using namespace customType;

static inline Tensor alpha_loss(Tensor& log_ps, Tensor& vs, const Tensor& target_ps, const Tensor& target_vs) {
  return mean(pow(vs - target_vs, 2)) - mean(sum(target_ps * log_ps, 1));
}

void update_network(int current_weight, int data_batch_num, int accum) {
  AlphaZeroNet model(NUM_LAYERS, NUM_CHANNELS, BORAD_SIZE, BORAD_SIZE * BORAD_SIZE);
  load(model, "./weights/" + str(current_weight) + ".pt");

  double lr = 0.05;
  ifstream lr_reader("lr.txt");
  if (lr_reader) lr_reader >> lr;
  lr_reader.close();
  lr *= W_DECAY;
  ofstream lr_writer("lr.txt");
  lr_writer << lr;
  lr_writer.close();

  // the rate is applied to the sum of `accum` batch gradients, hence lr / accum
  // (no weight decay in this setup)
  optim::SGD optimizer(model->parameters(), optim::SGDOptions(lr / accum).momentum(0.9));

  TrainData data = load_train_data(data_batch_num);
  const int total = static_cast<int>(data.boards.size());
  const int num_batches = total / BATCH_SIZE;

  model->train();
  optimizer.zero_grad();
  int in_group = 0;
  for (int b = 0; b < num_batches; ++b) {
    const int pt = b * BATCH_SIZE;
    Tensor inputs = cat(vector<Tensor>(data.boards.begin() + pt, data.boards.begin() + pt + BATCH_SIZE), 0);
    Tensor ps = cat(vector<Tensor>(data.policies.begin() + pt, data.policies.begin() + pt + BATCH_SIZE), 0)
                    .view({-1, BORAD_SIZE * BORAD_SIZE});
    Tensor vs = torch::tensor(v_buff_type(data.values.begin() + pt, data.values.begin() + pt + BATCH_SIZE))
                    .to(kFloat32)
                    .unsqueeze(1);
    auto result = model->forward(inputs);
    Tensor loss = alpha_loss(result.first, result.second, ps, vs);
    loss.backward();

    if (++in_group == accum) {
      optimizer.step();
      optimizer.zero_grad();
      in_group = 0;
      cout << "loss:" << loss.item() << endl;
    }
  }
  if (in_group > 0) {
    // the leftover group holds fewer batches: scale its sum up to a full group's mean
    for (auto& p : model->parameters()) {
      if (p.grad().defined()) p.mutable_grad().mul_(static_cast<double>(accum) / in_group);
    }
    optimizer.step();
    optimizer.zero_grad();
  }

  save(model, "./weights/" + str(current_weight + 1) + ".pt");
}

int main(int argc, char** argv) {
  update_network(argc > 1 ? atoi(argv[1]) : 0, argc > 2 ? atoi(argv[2]) : 32, argc > 3 ? atoi(argv[3]) : 4);
}
