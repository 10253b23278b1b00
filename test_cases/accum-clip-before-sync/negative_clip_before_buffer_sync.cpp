// RUN: %check_gradlint %s
// Gradients are averaged first, then clipped and applied; the all-reduce that
// follows the clip averages the BatchNorm running statistics (buffers), which
// has nothing to do with the gradient.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

void sync_gradients(c10d::ProcessGroup &pg, torch::nn::Module &net) {
  for (auto &p : net.parameters()) {
    std::vector<torch::Tensor> t{p.grad()};
    pg.allreduce(t)->wait();
    p.grad().div_(pg.getSize());
  }
}

void train(c10::intrusive_ptr<c10d::ProcessGroup> pg, torch::nn::Sequential &net,
           std::vector<torch::Tensor> &images, std::vector<torch::Tensor> &labels) {
  torch::optim::SGD optimizer(net->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  const int accumulation_steps = 4;
  c10d::AllreduceOptions avg;
  avg.reduceOp = c10d::ReduceOp::AVG;
  for (size_t step = 0; step < images.size(); ++step) {
    auto logits = net->forward(images[step]);
    auto loss = torch::cross_entropy_loss(logits, labels[step]) / accumulation_steps;
    loss.backward();
    if (step % accumulation_steps != accumulation_steps - 1)
      continue;
    sync_gradients(*pg, *net);
    torch::nn::utils::clip_grad_norm_(net->parameters(), 1.0);
    {
      torch::NoGradGuard guard;
      for (auto &buffer : net->buffers()) {
        std::vector<torch::Tensor> b{buffer};
        pg->allreduce(b, avg)->wait();
      }
    }
    optimizer.step();
    optimizer.zero_grad();
  }
}
