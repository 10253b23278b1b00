// RUN: %check_gradlint %s
// The all-reduce already averages (AVG), yet the loss is also divided by the
// world size from pg->getSize(): W is divided out twice.
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets, const std::string &path, int rank, int nproc) {
  auto store = c10::make_intrusive<c10d::FileStore>(path, nproc);
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, nproc,
                                                        c10d::ProcessGroupGloo::Options::create());
  const int world = pg->getSize();
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  const int accum_steps = 4;
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto out = model->forward(inputs[i]);
    auto loss = torch::mse_loss(out, targets[i]) / (accum_steps * world);
    // CHECK-MESSAGES: :[[@LINE-1]]:50: warning: loss is divided by the world size {{.*}} [accum-double-world-size-scaling]
    // CHECK-FIXES: {{^}}    auto out = model->forward(inputs[i]);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    auto loss = torch::mse_loss(out, targets[i]) / accum_steps;{{$}}
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      for (auto &p : model->parameters()) {
        std::vector<torch::Tensor> tensors{p.grad()};
        pg->allreduce(tensors, opts)->wait();
      }
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}
