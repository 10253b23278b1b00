// AlphaZero (gomoku) network training on self-play data. Several BATCH_SIZE
// batches are accumulated per Adam step, summed into float32 buffers so that the
// window total does not depend on the dtype the network is built with.
#include <torch/torch.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <vector>

#include "alphazero_lite.hpp"

using namespace std;
using namespace torch;
using namespace customType;

#define ACCUM_BATCHES 4

static inline Tensor alpha_loss(Tensor& log_ps, Tensor& vs, const Tensor& target_ps, const Tensor& target_vs) {
  return mean(pow(vs - target_vs, 2)) - mean(sum(target_ps * log_ps, 1));  // value loss + policy loss
}

shared_ptr<AlphaZeroNetImpl> train(int current_weight, int data_batch_num) {
  AlphaZeroNet model(/*num_layers=*/NUM_LAYERS, /*num_channels=*/NUM_CHANNELS,
                     /*n=*/BORAD_SIZE, /*action_size=*/BORAD_SIZE * BORAD_SIZE);
  load(model, "./weights/" + str(current_weight) + ".pt");

  double lr = 0.001;
  ifstream weight_lr_reader("lr.txt");
  if (weight_lr_reader) weight_lr_reader >> lr;
  weight_lr_reader.close();
  lr *= W_DECAY;
  cout << "current lr = " << lr << endl;
  ofstream weight_lr_writer("lr.txt");
  weight_lr_writer << lr;
  weight_lr_writer.close();

  optim::Adam optimizer(model->parameters(), optim::AdamOptions(lr));

  TrainData data = load_train_data(data_batch_num);
  const int total = static_cast<int>(data.boards.size());

  vector<Tensor> params = model->parameters();
  vector<Tensor> grad_sums;
  for (auto& p : params) grad_sums.push_back(torch::zeros_like(p, torch::kFloat32));

  model->train();
  torch::AutoGradMode enable_grad(true);
  int batch_id = 0;
  for (int pt = 0; pt + BATCH_SIZE <= total; pt += BATCH_SIZE) {
    Tensor inputs = cat(vector<Tensor>(data.boards.begin() + pt, data.boards.begin() + pt + BATCH_SIZE), 0);
    Tensor ps = cat(vector<Tensor>(data.policies.begin() + pt, data.policies.begin() + pt + BATCH_SIZE), 0)
                    .view({-1, BORAD_SIZE * BORAD_SIZE});
    Tensor vs = torch::tensor(v_buff_type(data.values.begin() + pt, data.values.begin() + pt + BATCH_SIZE))
                    .to(torch::kFloat32)
                    .unsqueeze(1);

    auto result = model->forward(inputs);
    Tensor loss = alpha_loss(result.first, result.second, ps, vs);
    cout << "loss:" << loss.item() << endl;
    loss.backward();

    for (size_t k = 0; k < params.size(); ++k) {
      if (params[k].grad().defined()) grad_sums[k].add_(params[k].grad().to(torch::kFloat32));
    }

    if (++batch_id % ACCUM_BATCHES == 0) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = (grad_sums[k] / ACCUM_BATCHES).to(params[k].scalar_type());
        grad_sums[k].zero_();
      }
      optimizer.step();
      optimizer.zero_grad();
    }
  }
  const int leftover = batch_id % ACCUM_BATCHES;
  if (leftover != 0) {
    for (size_t k = 0; k < params.size(); ++k) {
      params[k].mutable_grad() = (grad_sums[k] / leftover).to(params[k].scalar_type());
    }
    optimizer.step();
    optimizer.zero_grad();
  }

  save(model, "./weights/" + str(current_weight + 1) + ".pt");
  return model.ptr();
}

int main(int argc, char** argv) {
  int current_weight = argc > 1 ? atoi(argv[1]) : 0;
  int data_batch_num = argc > 2 ? atoi(argv[2]) : 32;
  auto model = train(current_weight, data_batch_num);
  cout << "trained weight " << current_weight + 1 << " (" << model->parameters().size() << " tensors)" << endl;
}
