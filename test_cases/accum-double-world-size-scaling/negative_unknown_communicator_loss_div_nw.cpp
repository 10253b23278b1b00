// RUN: %check_gradlint %s
// A user communicator defined elsewhere: whether its all_reduce() sums or
// averages is unknown, so dividing the loss by N * W is not provably double.
#include <torch/torch.h>

#include <cstdlib>
#include <string>

class Communicator {
public:
  void all_reduce(torch::Tensor &tensor);
};

void train(Communicator &comm, torch::nn::Linear model, torch::optim::SGD &sgd,
           std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  const int world_size = std::stoi(std::getenv("WORLD_SIZE"));
  const int accum = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / (accum * world_size);
    loss.backward();
    if ((i + 1) % accum == 0) {
      for (auto &p : model->parameters())
        comm.all_reduce(p.mutable_grad());
      sgd.step();
      sgd.zero_grad();
    }
  }
}
