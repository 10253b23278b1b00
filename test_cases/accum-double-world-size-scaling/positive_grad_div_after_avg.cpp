// RUN: %check_gradlint %s
// An AVG all-reduce already averages the gradients; dividing them by the world
// size afterwards divides W out twice.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  const int64_t world = pg->getSize();
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  const int k = 4;
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / k;
    loss.backward();
    if ((i + 1) % k == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> t{p.grad()};
        pg->allreduce(t, opts)->wait();
        p.mutable_grad().div_(world);
        // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: gradients are divided by the world size {{.*}} [accum-double-world-size-scaling]
        // CHECK-FIXES: {{^}}        pg->allreduce(t, opts)->wait();{{$}}
        // CHECK-FIXES-NEXT: {{^}}      }{{$}}
      }
      sgd.step();
      sgd.zero_grad();
    }
  }
}
