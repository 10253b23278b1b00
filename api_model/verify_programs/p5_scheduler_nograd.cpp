// LR scheduler, NoGradGuard evaluation, manual parameter update, autograd API.
#include <torch/torch.h>
#include <iostream>

void train_sched() {
  auto net = torch::nn::Sequential(torch::nn::Linear(4, 8), torch::nn::Tanh(), torch::nn::Linear(8, 1));
  torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9).nesterov(true));
  torch::optim::StepLR sched(opt, /*step_size=*/10, /*gamma=*/0.5);
  auto x = torch::rand({32, 4});
  auto y = x.sum(1, /*keepdim=*/true);
  for (int epoch = 0; epoch < 30; ++epoch) {
    opt.zero_grad();
    auto pred = net->forward(x);
    auto loss = torch::mse_loss(pred, y);
    loss.backward();
    opt.step();
    sched.step();
    {
      torch::NoGradGuard no_grad;
      auto val = torch::nn::functional::mse_loss(net->forward(x), y, torch::nn::functional::MSELossFuncOptions(torch::kMean));
      if (!torch::isfinite(val).all().item<bool>()) std::cout << "nan\n";
    }
  }
  // manual SGD update
  {
    torch::NoGradGuard guard;
    for (auto& p : net->parameters()) {
      if (!p.grad().defined()) continue;
      p.sub_(p.grad() * 0.01);
      p.grad().zero_();
    }
  }
  auto w = torch::randn({3}, torch::requires_grad());
  auto out = (w * w).sum();
  auto grads = torch::autograd::grad({out}, {w}, {}, /*retain_graph=*/true);
  torch::autograd::backward({out});
  std::cout << grads[0] << w.grad() << '\n';
}

int main() { train_sched(); }
