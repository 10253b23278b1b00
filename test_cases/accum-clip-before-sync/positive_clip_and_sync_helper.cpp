// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-clip-before-sync confirmed: no fixed loop was run
// A helper that "prepares" the gradients for the update: it clips first and
// all-reduces second, so the clip runs on the local gradient. Reported at the
// call; there is no fix-it (the clip would have to leave the helper), so the
// loop as written is compared with the large-batch reference alone.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void prepare_gradients(c10d::ProcessGroup &pg, torch::nn::Module &model, double max_norm) {
  torch::nn::utils::clip_grad_norm_(model.parameters(), max_norm);
  c10d::AllreduceOptions opts;
  opts.reduceOp = c10d::ReduceOp::AVG;
  for (auto &p : model.parameters()) {
    std::vector<torch::Tensor> t{p.grad()};
    pg.allreduce(t, opts)->wait();
  }
}

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Linear &model,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const int accum_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      prepare_gradients(*pg, *model, 0.05);
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient clipping runs before the gradient all-reduce {{.*}} [accum-clip-before-sync]
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}
