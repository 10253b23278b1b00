// A communicator whose all_reduce() picks the reduce op from the caller's
// enum (`op == Op::Sum ? SUM : AVG`), called with Op::Sum on every
// micro-batch, and one division by W after the window: the SUM re-adds the
// earlier micro-batches' gradients across ranks at each later call. The op
// is the model's reading at the call site, so the run sums (it over-counts).
// CONFIRM-VERDICT: accum-unguarded-grad-sync confirmed: 4 all-reduces of the gradient per step instead of 1
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>

class Collectives {
 public:
  enum class Op { Sum, Mean };
  explicit Collectives(c10::intrusive_ptr<c10d::ProcessGroup> group) : group_(std::move(group)) {}
  void all_reduce(torch::Tensor &tensor, Op op) {
    std::vector<torch::Tensor> single{tensor};
    c10d::AllreduceOptions options;
    options.reduceOp = op == Op::Sum ? c10d::ReduceOp::SUM : c10d::ReduceOp::AVG;
    group_->allreduce(single, options)->wait();
  }
  int size() const { return group_->getSize(); }

 private:
  c10::intrusive_ptr<c10d::ProcessGroup> group_;
};

void train(torch::nn::Linear &net, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, Collectives &comm) {
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.05));
  const int micro_steps = 4;
  for (size_t outer = 0; outer + micro_steps <= xs.size(); outer += micro_steps) {
    for (int k = 0; k < micro_steps; ++k) {
      auto loss = torch::mse_loss(net->forward(xs[outer + k]), ys[outer + k]) / micro_steps;
      loss.backward();
      for (auto &p : net->parameters()) {
        auto g = p.grad();
        comm.all_reduce(g, Collectives::Op::Sum);
      }
    }
    for (auto &p : net->parameters())
      p.grad().div_(comm.size());
    sgd.step();
    sgd.zero_grad();
  }
}
