// RUN: %check_gradlint %s
// Function template over model and optimizer: SUM all-reduce, division by W,
// then value clipping of the global gradient, then step.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

template <typename Model, typename Optimizer>
void train_loop(const c10::intrusive_ptr<c10d::ProcessGroup> &pg, Model &model,
                Optimizer &optimizer, const std::vector<torch::Tensor> &xs,
                const std::vector<torch::Tensor> &ys, int accum) {
  const auto world = pg->getSize();
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::Tensor loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      for (auto &param : model->parameters()) {
        std::vector<torch::Tensor> tensors = {param.grad()};
        pg->allreduce(tensors)->wait();
        param.grad().div_(world);
      }
      torch::nn::utils::clip_grad_value_(model->parameters(), 0.01);
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}

void run(const c10::intrusive_ptr<c10d::ProcessGroup> &pg, torch::nn::Linear &net,
         const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3));
  train_loop(pg, net, adam, xs, ys, 4);
}
