// RUN: %check_gradlint %s
// N is what is left of a global batch per rank: global / (micro * world), a
// value that shrinks as W grows. The loss is divided by that N only, and the
// summed gradients once by W: W is divided out once.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear model, torch::optim::SGD &sgd,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys, int64_t global_batch,
           int64_t micro_batch) {
  const int64_t world = pg->getSize();
  const int64_t steps_per_rank = std::max<int64_t>(1, global_batch / (micro_batch * world));
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::Tensor loss = torch::mse_loss(model->forward(xs[i]), ys[i]);
    (loss / static_cast<double>(steps_per_rank)).backward();
    if ((i + 1) % steps_per_rank == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> grads{p.grad()};
        pg->allreduce(grads)->wait();
        p.grad().div_(world);
      }
      sgd.step();
      sgd.zero_grad();
    }
  }
}
