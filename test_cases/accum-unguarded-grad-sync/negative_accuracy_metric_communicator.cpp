// RUN: %check_gradlint %s
// A user communicator sums the correct-prediction count (a metric, not a
// gradient) on every micro-batch; gradients are synced at the boundary only.
#include <torch/torch.h>

class Communicator {
public:
  void all_reduce(torch::Tensor &tensor);
};

int64_t train(Communicator &comm, torch::nn::Linear model, torch::optim::Adam &adam,
              std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys, int gas) {
  int64_t correct_total = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto logits = model->forward(xs[i]);
    auto loss = torch::cross_entropy_loss(logits, ys[i]) / gas;
    loss.backward();
    torch::Tensor correct = logits.argmax(1).eq(ys[i]).sum();
    comm.all_reduce(correct);
    correct_total += correct.item<int64_t>();
    if ((i + 1) % gas == 0) {
      for (auto &p : model->parameters())
        comm.all_reduce(p.mutable_grad());
      adam.step();
      adam.zero_grad();
    }
  }
  return correct_total;
}
