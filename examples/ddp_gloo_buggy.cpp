// Data-parallel linear regression over Gloo with gradient accumulation --
// two distributed mistakes (seed 000).
//
// LibTorch has no DistributedDataParallel, so every rank averages the
// gradients itself (average_gradients: SUM all-reduce, then div_ by the world
// size). The program gets two things wrong:
//   1. average_gradients runs after every backward(), not once per window:
//      N all-reduces (N x the bytes) per optimizer step instead of one. The
//      values stay right only because the helper divides right after each
//      SUM; a SUM with one division at the boundary would over-count;
//   2. the loss is divided by accum_steps * world_size although
//      average_gradients already divides by the world size: the update
//      shrinks by another factor of W.
//
// Run W processes: ddp_gloo_buggy RANK WORLD_SIZE STORE_FILE
// (RANK and WORLD_SIZE may also come from the environment, as with torchrun).
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace {

int arg_or_env(int argc, char** argv, int index, const char* env_name, int fallback) {
  if (argc > index) return std::stoi(argv[index]);
  const char* value = std::getenv(env_name);
  return value != nullptr ? std::stoi(value) : fallback;
}

// Sums every parameter gradient over the ranks and divides by their number.
void average_gradients(torch::nn::Module& model, c10d::ProcessGroup& pg) {
  const int ranks = pg.getSize();
  for (auto& param : model.parameters()) {
    if (!param.grad().defined()) continue;
    std::vector<torch::Tensor> bucket{param.mutable_grad()};
    pg.allreduce(bucket)->wait();  // ReduceOp::SUM by default
    param.mutable_grad().div_(ranks);
  }
}

void train(torch::nn::Linear& model, c10d::ProcessGroup& pg,
           const std::vector<torch::Tensor>& inputs, const std::vector<torch::Tensor>& targets) {
  const int accum_steps = 8;
  const int world_size = pg.getSize();
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));

  for (int epoch = 0; epoch < 5; ++epoch) {
    double epoch_loss = 0.0;
    for (size_t i = 0; i < inputs.size(); ++i) {
      torch::Tensor prediction = model->forward(inputs[i]);
      // BUG 2: the all-reduce below already averages over the ranks.
      torch::Tensor loss = torch::mse_loss(prediction, targets[i]) / (accum_steps * world_size);
      loss.backward();

      average_gradients(*model, pg);  // BUG 1: synchronises every micro-batch

      if ((i + 1) % accum_steps == 0 || i + 1 == inputs.size()) {
        optimizer.step();
        optimizer.zero_grad();
      }
      epoch_loss += loss.item<double>();
    }

    // Logging only: the loss summed over the ranks (a value, not gradients).
    std::vector<torch::Tensor> report{torch::tensor({epoch_loss})};
    pg.allreduce(report)->wait();
    if (pg.getRank() == 0) {
      std::cout << "epoch " << epoch << "  summed loss " << report[0].item<double>() << std::endl;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int rank = arg_or_env(argc, argv, 1, "RANK", 0);
  const int world = arg_or_env(argc, argv, 2, "WORLD_SIZE", 1);
  const std::string store_file = argc > 3 ? argv[3] : "/tmp/gradlint_ddp_store";

  auto store = c10::make_intrusive<c10d::FileStore>(store_file, world);
  auto options = c10d::ProcessGroupGloo::Options::create();
  options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world, options);

  // Every rank starts from the same weights and reads its own shard.
  torch::manual_seed(0);
  torch::nn::Linear model(16, 1);
  torch::manual_seed(1000 + rank);
  const torch::Tensor true_weight = torch::linspace(-1.0, 1.0, 16).unsqueeze(1);
  std::vector<torch::Tensor> inputs;
  std::vector<torch::Tensor> targets;
  for (int b = 0; b < 64; ++b) {
    inputs.push_back(torch::randn({8, 16}));
    targets.push_back(inputs.back().matmul(true_weight) + 0.01 * torch::randn({8, 1}));
  }

  train(model, *pg, inputs, targets);
  pg->barrier()->wait();
  return 0;
}

// gradlint --confirm: Adam normalises the gradient's scale, so the double
// division by the world size changes the gradient (0.5x) but not the updates.
// CONFIRM-VERDICT: accum-double-world-size-scaling not-confirmed: normalises the gradient's scale
