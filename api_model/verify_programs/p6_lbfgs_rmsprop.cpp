// LBFGS with closure, RMSprop, Adagrad, param groups.
#include <torch/torch.h>
#include <iostream>

void train_lbfgs() {
  auto lin = torch::nn::Linear(3, 1);
  torch::optim::LBFGS lbfgs(lin->parameters(), torch::optim::LBFGSOptions(1.0).max_iter(20));
  auto x = torch::randn({10, 3});
  auto y = torch::randn({10, 1});
  auto closure = [&]() -> torch::Tensor {
    lbfgs.zero_grad();
    auto loss = torch::smooth_l1_loss(lin->forward(x), y);
    loss.backward();
    return loss;
  };
  for (int i = 0; i < 5; ++i) lbfgs.step(closure);

  torch::optim::RMSprop rms(lin->parameters(), torch::optim::RMSpropOptions(1e-2).alpha(0.9));
  torch::optim::Adagrad ada(lin->parameters(), torch::optim::AdagradOptions(0.1));
  for (int i = 0; i < 4; ++i) {
    auto loss = torch::l1_loss(lin->forward(x), y);
    loss.backward();
    rms.step();
    rms.zero_grad();
    auto loss2 = torch::nn::functional::huber_loss(lin->forward(x), y);
    loss2.backward();
    ada.step();
    ada.zero_grad();
  }
  std::vector<torch::optim::OptimizerParamGroup> groups;
  groups.emplace_back(std::vector<torch::Tensor>{lin->weight}, std::make_unique<torch::optim::AdamOptions>(1e-3));
  groups.emplace_back(std::vector<torch::Tensor>{lin->bias}, std::make_unique<torch::optim::AdamOptions>(1e-2));
  torch::optim::Adam adam(groups, torch::optim::AdamOptions(1e-3));
  auto l = torch::binary_cross_entropy(torch::sigmoid(lin->forward(x)), torch::rand({10, 1}));
  l.backward();
  adam.step();
  adam.zero_grad();
  for (auto& g : adam.param_groups()) std::cout << g.params().size() << " " << g.options().get_lr() << '\n';
}

int main() { train_lbfgs(); }
