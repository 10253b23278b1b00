// RUN: %check_gradlint %s
// One helper sums a parameter group's gradients over the ranks and divides
// them by W; the boundary runs it on the encoder's group, then on the
// decoder's. Each gradient is divided by W once.
#include <torch/torch.h>
#include <c10d/ProcessGroup.hpp>

struct Averager {
  c10::intrusive_ptr<c10d::ProcessGroup> pg;
  void operator()(const std::vector<torch::Tensor> &group) {
    for (const auto &p : group) {
      std::vector<torch::Tensor> grads{p.grad()};
      pg->allreduce(grads)->wait();
      p.grad().div_(static_cast<double>(pg->getSize()));
    }
  }
};

void train(Averager &average, torch::nn::Linear encoder, torch::nn::Linear decoder, torch::optim::Adam &adam,
           const std::vector<torch::Tensor> &xs, int accum) {
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::Tensor recon = decoder->forward(torch::relu(encoder->forward(xs[i])));
    (torch::mse_loss(recon, xs[i]) / accum).backward();
    if ((i + 1) % accum == 0) {
      average(encoder->parameters());
      average(decoder->parameters());
      adam.step();
      adam.zero_grad();
    }
  }
}
