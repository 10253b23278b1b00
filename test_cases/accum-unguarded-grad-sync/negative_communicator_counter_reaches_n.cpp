// RUN: %check_gradlint %s
// A user communicator's all_reduce() on the gradients inside
// `if (++micro == N) { ...; micro = 0; }`: once per window, correct.
#include <torch/torch.h>

class Communicator {
public:
  explicit Communicator(int rank);
  void all_reduce(torch::Tensor &tensor);
};

void train_epoch(Communicator &comm, torch::nn::Linear model, torch::optim::Optimizer &opt,
                 const std::vector<std::pair<torch::Tensor, torch::Tensor>> &data) {
  constexpr int kMicroBatches = 4;
  int micro = 0;
  for (const auto &sample : data) {
    auto scaled = torch::mse_loss(model->forward(sample.first), sample.second).div(kMicroBatches);
    scaled.backward();
    if (++micro == kMicroBatches) {
      for (auto &param : model->parameters())
        comm.all_reduce(param.mutable_grad());
      opt.step();
      opt.zero_grad();
      micro = 0;
    }
  }
}
