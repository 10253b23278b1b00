// RUN: %check_gradlint %s
// The same kind of communicator, asked for Mean: the all-reduce already averages, and the
// gradients are divided by the world size again.
#include <c10d/ProcessGroup.hpp>
#include <torch/torch.h>

class Collective {
public:
  enum class Kind { Sum, Mean };
  explicit Collective(c10::intrusive_ptr<c10d::ProcessGroup> pg) : pg_(std::move(pg)) {}
  int world() const { return pg_->getSize(); }
  void allreduce(torch::Tensor &t, Kind kind) {
    std::vector<torch::Tensor> one{t};
    c10d::AllreduceOptions opts;
    opts.reduceOp = kind == Kind::Sum ? c10d::ReduceOp::SUM : c10d::ReduceOp::AVG;
    pg_->allreduce(one, opts)->wait();
  }

private:
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
};

void train(Collective &coll, torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(model->parameters(), 0.1);
  const int accum = 2;
  for (size_t i = 0; i < xs.size(); ++i) {
    (torch::mse_loss(model->forward(xs[i]), ys[i]) / accum).backward();
    if ((i + 1) % accum == 0) {
      for (auto &p : model->parameters()) {
        torch::Tensor g = p.grad();
        coll.allreduce(g, Collective::Kind::Mean);
        g.div_(coll.world());
        // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: gradients are divided by the world size{{.*}} [accum-double-world-size-scaling]
        // CHECK-FIXES: {{^}}        coll.allreduce(g, Collective::Kind::Mean);{{$}}
        // CHECK-FIXES-NEXT: {{^}}      }{{$}}
      }
      sgd.step();
      sgd.zero_grad();
    }
  }
}
