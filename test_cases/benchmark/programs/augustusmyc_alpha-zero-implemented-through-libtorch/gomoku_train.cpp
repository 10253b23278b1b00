// Gomoku AlphaZero training on the GPU build (USE_GPU): the residual network is
// kept in bfloat16 to fit larger boards, and each optimizer step accumulates
// ACCUM_STEPS self-play batches. Every TEST_EVERY steps the policy loss is
// measured on a held-out slice.
#include <torch/torch.h>

#include <fstream>
#include <iostream>
#include <vector>

#include "alphazero_lite.hpp"

using namespace std;
using namespace torch;
using namespace customType;

static const int ACCUM_STEPS = 16;
static const int TEST_EVERY = 50;

class AlphaTrainer {
 public:
  AlphaTrainer(int current_weight, torch::Device device)
      : model(NUM_LAYERS, NUM_CHANNELS, BORAD_SIZE, BORAD_SIZE * BORAD_SIZE), device(device),
        current_weight(current_weight) {
    load(model, "./weights/" + str(current_weight) + ".pt");
    model->to(device, torch::kBFloat16);
  }

  void run(int data_batch_num) {
    double lr = 0.002;
    {
      ifstream in("lr.txt");
      if (in) in >> lr;
    }
    lr *= W_DECAY;
    {
      ofstream out("lr.txt");
      out << lr;
    }
    optim::SGD optimizer(model->parameters(), optim::SGDOptions(lr).momentum(0.9).weight_decay(1e-4));

    TrainData data = load_train_data(data_batch_num);
    const int held_out = 4 * BATCH_SIZE;
    const int num_batches = (static_cast<int>(data.boards.size()) - held_out) / BATCH_SIZE;

    model->train();
    optimizer.zero_grad();
    int steps = 0;
    for (int b = 0; b < num_batches; ++b) {
      auto [inputs, ps, vs] = make_batch(data, b * BATCH_SIZE);
      auto result = model->forward(inputs);
      Tensor value_loss = mean(pow(result.second - vs, 2));
      Tensor policy_loss = -mean(sum(ps * result.first, 1));
      Tensor loss = (value_loss + policy_loss) / ACCUM_STEPS;
      loss.backward();

      if ((b + 1) % ACCUM_STEPS == 0 || b == num_batches - 1) {
        optimizer.step();
        optimizer.zero_grad();
        if (++steps % TEST_EVERY == 0) evaluate(data, num_batches * BATCH_SIZE);
      }
    }
    save(model, "./weights/" + str(current_weight + 1) + ".pt");
  }

 private:
  std::tuple<Tensor, Tensor, Tensor> make_batch(const TrainData& data, int pt) {
    Tensor inputs = cat(vector<Tensor>(data.boards.begin() + pt, data.boards.begin() + pt + BATCH_SIZE), 0);
    Tensor ps = cat(vector<Tensor>(data.policies.begin() + pt, data.policies.begin() + pt + BATCH_SIZE), 0)
                    .view({-1, BORAD_SIZE * BORAD_SIZE});
    Tensor vs = torch::tensor(v_buff_type(data.values.begin() + pt, data.values.begin() + pt + BATCH_SIZE)).unsqueeze(1);
    auto opts = TensorOptions().device(device).dtype(kBFloat16);
    return {inputs.to(opts), ps.to(opts), vs.to(opts)};
  }

  void evaluate(const TrainData& data, int start) {
    NoGradGuard no_grad;
    model->eval();
    auto [inputs, ps, vs] = make_batch(data, start);
    auto result = model->forward(inputs);
    cout << "held-out policy loss: " << (-mean(sum(ps * result.first, 1))).item<float>()
         << " value loss: " << mean(pow(result.second - vs, 2)).item<float>() << endl;
    model->train();
  }

  AlphaZeroNet model;
  torch::Device device;
  int current_weight;
};

int main(int argc, char** argv) {
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  AlphaTrainer trainer(argc > 1 ? atoi(argv[1]) : 0, device);
  trainer.run(argc > 2 ? atoi(argv[2]) : 64);
}
