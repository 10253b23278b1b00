// RUN: %check_gradlint %s
// A user communicator whose all_reduce() only sums over the ProcessGroup; the
// loss is divided by N * W, so W is divided out exactly once. Correct.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

class SumComm {
public:
  explicit SumComm(c10::intrusive_ptr<c10d::ProcessGroup> pg) : pg_(std::move(pg)) {}

  void all_reduce(torch::Tensor &t) {
    std::vector<torch::Tensor> buffers{t};
    pg_->allreduce(buffers)->wait();
  }
  int size() const { return pg_->getSize(); }

private:
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
};

void train(SumComm &comm, torch::nn::Linear model, torch::optim::SGD &opt,
           const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / (accum_steps * comm.size());
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      for (auto &p : model->parameters())
        comm.all_reduce(p.mutable_grad());
      opt.step();
      opt.zero_grad();
    }
  }
}
