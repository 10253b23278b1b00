// Custom module + TORCH_MODULE, manual grad scaling, per-parameter grad ops.
#include <torch/torch.h>
#include <iostream>

struct NetImpl : torch::nn::Module {
  NetImpl(int64_t in, int64_t hidden, int64_t out)
      : fc1(register_module("fc1", torch::nn::Linear(in, hidden))),
        fc2(register_module("fc2", torch::nn::Linear(torch::nn::LinearOptions(hidden, out).bias(false)))),
        bn(register_module("bn", torch::nn::BatchNorm1d(hidden))) {
    scale = register_parameter("scale", torch::ones({1}));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(bn(fc1(x)));
    x = torch::dropout(x, 0.5, is_training());
    return fc2(x) * scale;
  }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
  torch::nn::BatchNorm1d bn{nullptr};
  torch::Tensor scale;
};
TORCH_MODULE(Net);

void train_custom() {
  Net net(16, 32, 4);
  torch::optim::Adam opt(net->parameters(), torch::optim::AdamOptions(1e-3).weight_decay(1e-4));
  auto x = torch::randn({8, 16});
  auto y = torch::randint(0, 4, {8}, torch::kLong);
  for (int i = 0; i < 10; ++i) {
    auto loss = torch::nn::functional::cross_entropy(net(x), y);
    loss.backward();
    for (auto& p : net->parameters()) {
      if (p.grad().defined()) p.mutable_grad().div_(4);
    }
    if (i % 4 == 3) {
      opt.step();
      for (auto& p : net->parameters()) {
        p.grad().zero_();
      }
    }
  }
  for (auto& p : net->parameters()) {
    p.mutable_grad() = torch::Tensor();
  }
  for (auto& kv : net->named_parameters()) {
    std::cout << kv.key() << " " << kv.value().sizes() << '\n';
    kv.value().mutable_grad().reset();
  }
  net->zero_grad();
  net->zero_grad(true);
  net->eval();
}

int main() { train_custom(); }
