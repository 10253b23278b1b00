// Trainer class holding an AdamW optimizer; templates over Optimizer&; lambdas.
#include <torch/torch.h>
#include <functional>
#include <iostream>
#include <memory>

template <typename Opt>
void train_step_generic(Opt& opt, torch::Tensor loss) {
  loss.backward();
  opt.step();
  opt.zero_grad();
}

void train_with_base(torch::optim::Optimizer& opt, const torch::Tensor& loss) {
  loss.backward({}, /*retain_graph=*/true);
  opt.step();
  opt.zero_grad();
}

class Trainer {
 public:
  Trainer()
      : model_(torch::nn::Linear(10, 1)),
        optimizer_(model_->parameters(), torch::optim::AdamWOptions(3e-4).betas({0.9, 0.95}).weight_decay(0.1)),
        loss_fn_(torch::nn::MSELossOptions().reduction(torch::kSum)) {}

  void train_epoch(int steps, int accum) {
    auto compute = [&](const torch::Tensor& x, const torch::Tensor& y) { return loss_fn_(model_(x), y); };
    for (int s = 0; s < steps; ++s) {
      auto x = torch::randn({4, 10});
      auto y = torch::randn({4, 1});
      auto loss = compute(x, y) / static_cast<double>(accum);
      loss.backward();
      if ((s + 1) % accum == 0) {
        torch::nn::utils::clip_grad_value_(model_->parameters(), 0.5);
        optimizer_.step();
        optimizer_.zero_grad();
      }
    }
    for (auto& group : optimizer_.param_groups()) {
      auto& o = static_cast<torch::optim::AdamWOptions&>(group.options());
      o.lr(o.lr() * 0.5);
      group.options().set_lr(group.options().get_lr() * 0.9);
    }
    train_step_generic(optimizer_, loss_fn_(model_(torch::randn({4, 10})), torch::zeros({4, 1})));
    train_with_base(optimizer_, torch::mse_loss(model_(torch::randn({4, 10})), torch::zeros({4, 1})));
  }

 private:
  torch::nn::Linear model_;
  torch::optim::AdamW optimizer_;
  torch::nn::MSELoss loss_fn_;
};

int main() {
  Trainer t;
  t.train_epoch(8, 4);
  auto loss = torch::tensor({1.0, 2.0}).sum();
  std::cout << loss << '\n';
}
