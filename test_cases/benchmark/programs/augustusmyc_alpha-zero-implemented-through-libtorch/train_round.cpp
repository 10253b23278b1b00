// One AlphaZero training round (gomoku): self-play samples are consumed in
// BATCH_SIZE batches, ACCUM batches per optimizer step. Gradients of each batch are
// moved into float32 accumulators and .grad is cleared, so that BatchNorm's running
// statistics and the value head see normal-sized batches while the step sees the
// mean over the whole window.
#include <torch/torch.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <vector>

#include "alphazero_lite.hpp"

using namespace std;
using namespace torch;
using namespace customType;

namespace {

constexpr int ACCUM = 8;

Tensor alpha_loss(const Tensor& log_ps, const Tensor& vs, const Tensor& target_ps, const Tensor& target_vs) {
  return mean(pow(vs - target_vs, 2)) - mean(sum(target_ps * log_ps, 1));
}

struct GradAccumulator {
  vector<Tensor> params;
  vector<Tensor> sums;
  int count = 0;

  explicit GradAccumulator(vector<Tensor> ps) : params(std::move(ps)) {
    for (auto& p : params) sums.push_back(torch::zeros_like(p, kFloat32));
  }
  // Moves the current .grad into the float32 sums.
  void absorb() {
    for (size_t k = 0; k < params.size(); ++k) {
      if (!params[k].grad().defined()) continue;
      sums[k].add_(params[k].grad().to(kFloat32));
      params[k].grad().zero_();
    }
    ++count;
  }
  // Writes the window mean into .grad and empties the sums.
  void publish() {
    for (size_t k = 0; k < params.size(); ++k) {
      params[k].mutable_grad() = (sums[k] / static_cast<double>(count)).to(params[k].scalar_type());
      sums[k].zero_();
    }
    count = 0;
  }
};

}  // namespace

void train(int current_weight, int data_batch_num) {
  AlphaZeroNet model(NUM_LAYERS, NUM_CHANNELS, BORAD_SIZE, BORAD_SIZE * BORAD_SIZE);
  load(model, "./weights/" + str(current_weight) + ".pt");

  double lr = 0.001;
  {
    ifstream reader("lr.txt");
    if (reader) reader >> lr;
  }
  lr *= W_DECAY;
  {
    ofstream writer("lr.txt");
    writer << lr;
  }
  cout << "current lr = " << lr << endl;

  optim::Adam optimizer(model->parameters(), optim::AdamOptions(lr).weight_decay(1e-4));
  TrainData data = load_train_data(data_batch_num);
  const int total = static_cast<int>(data.boards.size());

  GradAccumulator accumulator(model->parameters());
  model->train();
  optimizer.zero_grad();
  for (int pt = 0; pt + BATCH_SIZE <= total; pt += BATCH_SIZE) {
    Tensor inputs = cat(vector<Tensor>(data.boards.begin() + pt, data.boards.begin() + pt + BATCH_SIZE), 0);
    Tensor ps = cat(vector<Tensor>(data.policies.begin() + pt, data.policies.begin() + pt + BATCH_SIZE), 0)
                    .view({-1, BORAD_SIZE * BORAD_SIZE});
    Tensor vs = torch::tensor(v_buff_type(data.values.begin() + pt, data.values.begin() + pt + BATCH_SIZE))
                    .to(kFloat32)
                    .unsqueeze(1);
    auto result = model->forward(inputs);
    Tensor loss = alpha_loss(result.first, result.second, ps, vs);
    loss.backward();
    accumulator.absorb();

    if (accumulator.count == ACCUM) {
      accumulator.publish();
      optimizer.step();
      optimizer.zero_grad();
      cout << "loss:" << loss.item() << endl;
    }
  }
  if (accumulator.count > 0) {
    accumulator.publish();
    optimizer.step();
    optimizer.zero_grad();
  }

  save(model, "./weights/" + str(current_weight + 1) + ".pt");
}

int main(int argc, char** argv) {
  train(argc > 1 ? atoi(argv[1]) : 0, argc > 2 ? atoi(argv[2]) : 32);
}
