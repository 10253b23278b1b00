// TRUTH: buggy: optimizer.zero_grad() at the top of every micro-batch inside the accumulation window (N=4) discards the earlier micro-batches; expect a numerical effect: SGD with momentum applies only the last micro-batch's gradient / 4, far from the large-batch gradient.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct Net : torch::nn::Module {
  Net() {
    fc1 = register_module("fc1", torch::nn::Linear(784, 128));
    fc2 = register_module("fc2", torch::nn::Linear(128, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x));
    return fc2->forward(x);
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

int main() {
  torch::manual_seed(1);
  auto net = std::make_shared<Net>();

  std::vector<torch::Tensor> xs, ys;
  for (int i = 0; i < 64; ++i) {
    xs.push_back(torch::randn({16, 784}));
    ys.push_back(torch::randint(0, 10, {16}));
  }

  torch::optim::SGD optimizer(net->parameters(),
                              torch::optim::SGDOptions(0.05).momentum(0.9));
  const int accum_steps = 4;

  for (int epoch = 0; epoch < 3; ++epoch) {
    double running = 0.0;
    for (size_t batch_idx = 0; batch_idx < xs.size(); ++batch_idx) {
      optimizer.zero_grad();
      auto out = net->forward(xs[batch_idx]);
      auto loss = torch::nn::functional::cross_entropy(out, ys[batch_idx]);
      loss = loss / accum_steps;
      loss.backward();
      running += loss.item<double>();

      if ((batch_idx + 1) % accum_steps == 0) {
        optimizer.step();
      }
    }
    std::cout << "epoch " << epoch << " loss " << running / xs.size() << "\n";
  }
  return 0;
}
