// RUN: %check_gradlint %s
// An ordinary MNIST loop: zero_grad, backward, clip, step on every iteration.
// There is no accumulation window, so clipping every iteration is correct.
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() : fc(register_module("fc", torch::nn::Linear(784, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x.view({-1, 784})); }
  torch::nn::Linear fc;
};

void train(std::shared_ptr<Net> net, std::vector<torch::Tensor> &images,
           std::vector<torch::Tensor> &labels) {
  torch::optim::SGD optimizer(net->parameters(), torch::optim::SGDOptions(0.01).momentum(0.5));
  size_t batch_index = 0;
  for (auto &image : images) {
    optimizer.zero_grad();
    auto output = torch::log_softmax(net->forward(image), /*dim=*/1);
    auto loss = torch::nll_loss(output, labels[batch_index++]);
    loss.backward();
    torch::nn::utils::clip_grad_norm_(net->parameters(), 10.0);
    optimizer.step();
  }
}
