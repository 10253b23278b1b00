// RUN: %check_gradlint %s
// The batches come from a helper that pushes one batch per iteration of a counted loop (50
// of them), and N from the command line, 4 unless `argv[1]` says otherwise. With the code's
// defaults every epoch leaves 2 micro-batches after its last boundary, and the reset at the
// next epoch's start throws them away: definite, and the message says N is a default.
#include <torch/torch.h>
#include <string>
#include <vector>

struct Batch {
  torch::Tensor x, y;
};

std::vector<Batch> synthetic_batches(int count, int rows) {
  std::vector<Batch> batches;
  batches.reserve(count);
  for (int b = 0; b < count; ++b)
    batches.push_back({torch::randn({rows, 12}), torch::randn({rows, 1})});
  return batches;
}

int main(int argc, char **argv) {
  const int accumulation = argc > 1 ? std::stoi(argv[1]) : 4;
  const auto batches = synthetic_batches(50, 8);
  torch::nn::Linear regressor(12, 1);
  torch::optim::SGD sgd(regressor->parameters(), torch::optim::SGDOptions(0.01));
  for (int epoch = 0; epoch < 5; ++epoch) {
    sgd.zero_grad();
    for (size_t i = 0; i < batches.size(); ++i) {
      auto loss = torch::mse_loss(regressor->forward(batches[i].x), batches[i].y) / accumulation;
      // CHECK-FIXES-UNSAFE: {{^}}    for (size_t i = 0; i < batches.size(); ++i) {{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      auto loss = torch::mse_loss(regressor->forward(batches[i].x), batches[i].y) / static_cast<double>(i >= batches.size() - batches.size() % accumulation ? batches.size() % accumulation : accumulation);{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      loss.backward();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if ((i + 1) % accumulation == 0 || i + 1 == batches.size()) {{{$}}
      loss.backward();
      if ((i + 1) % accumulation == 0) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: the last partial window of every epoch never reaches step(): the loop runs batches.size() = 50 batches, not a multiple of N = accumulation = 4 (its default; the command line can change it): the 2 micro-batches {{.*}} discards them [accum-trailing-micro-batches]
        sgd.step();
        sgd.zero_grad();
      }
    }
  }
}
