// RUN: %check_gradlint %s
// The communicator maps its own op enum onto c10d's with a conditional; this loop asks for Sum,
// so dividing the summed gradients by the world size once is the mean over ranks.
#include <c10d/ProcessGroup.hpp>
#include <torch/torch.h>

class Comm {
public:
  enum class Reduce { Sum, Mean, Max };
  explicit Comm(c10::intrusive_ptr<c10d::ProcessGroup> pg) : pg_(std::move(pg)) {}
  int ranks() const { return pg_->getSize(); }
  void all_reduce(torch::Tensor &t, Reduce how) {
    std::vector<torch::Tensor> one{t};
    c10d::AllreduceOptions opts;
    opts.reduceOp = how == Reduce::Sum    ? c10d::ReduceOp::SUM
                    : how == Reduce::Mean ? c10d::ReduceOp::AVG
                                          : c10d::ReduceOp::MAX;
    pg_->allreduce(one, opts)->wait();
  }

private:
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
};

void train(Comm &comm, torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(model->parameters(), 0.1);
  const int accum = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    (torch::mse_loss(model->forward(xs[i]), ys[i]) / accum).backward();
    if ((i + 1) % accum == 0) {
      for (auto &p : model->parameters()) {
        torch::Tensor g = p.grad();
        comm.all_reduce(g, Comm::Reduce::Sum);
        g.div_(comm.ranks());
      }
      sgd.step();
      sgd.zero_grad();
    }
  }
}
