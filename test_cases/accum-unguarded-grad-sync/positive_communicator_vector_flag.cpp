// RUN: %check_gradlint %s
// A user MPI wrapper's allreduce(std::vector<Tensor>&) over the gradients runs
// before the boundary flag is tested, i.e. on every micro-batch.
#include <torch/torch.h>

class MpiComm {
public:
  void allreduce(std::vector<torch::Tensor> &tensors);
};

void train(std::shared_ptr<MpiComm> comm, torch::nn::Sequential model,
           std::vector<torch::Tensor> &xs, std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(model->parameters(), 0.05);
  const int64_t n = 16;
  for (int64_t it = 0; it < static_cast<int64_t>(xs.size()); ++it) {
    const bool sync = (it + 1) % n == 0;
    auto objective = torch::mse_loss(model->forward(xs[it]), ys[it]) * (1.0 / n);
    objective.backward();
    std::vector<torch::Tensor> grads;
    for (auto &p : model->parameters())
      grads.push_back(p.grad());
    comm->allreduce(grads);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient all-reduce runs on every micro-batch {{.*}} [accum-unguarded-grad-sync]
    // CHECK-FIXES: {{^}}      grads.push_back(p.grad());{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (sync) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      comm->allreduce(grads);{{$}}
    if (sync) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}
