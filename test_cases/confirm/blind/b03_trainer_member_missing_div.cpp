// TRUTH: buggy: Trainer::train_step never divides the loss by accumulation_steps_ (8) and the gradients are not divided at the boundary; expect a numerical effect: plain SGD applies an update 8x the large-batch update.
#include <torch/torch.h>

#include <iostream>
#include <memory>
#include <vector>

class Trainer {
 public:
  Trainer(torch::nn::Sequential model, double lr, int accumulation_steps)
      : model_(std::move(model)),
        optimizer_(std::make_unique<torch::optim::SGD>(model_->parameters(),
                                                       torch::optim::SGDOptions(lr))),
        accumulation_steps_(accumulation_steps) {}

  void train_step(const torch::Tensor& x, const torch::Tensor& y) {
    auto logits = model_->forward(x);
    auto loss = torch::nn::functional::mse_loss(logits, y);
    loss.backward();
    last_loss_ = loss.item<float>();
    ++micro_step_;
    if (micro_step_ == accumulation_steps_) {
      optimizer_->step();
      optimizer_->zero_grad();
      micro_step_ = 0;
      ++global_step_;
    }
  }

  int64_t global_step() const { return global_step_; }
  float last_loss() const { return last_loss_; }

 private:
  torch::nn::Sequential model_;
  std::unique_ptr<torch::optim::SGD> optimizer_;
  int accumulation_steps_;
  int micro_step_ = 0;
  int64_t global_step_ = 0;
  float last_loss_ = 0.f;
};

int main() {
  torch::nn::Sequential net(torch::nn::Linear(20, 40), torch::nn::Tanh(), torch::nn::Linear(40, 5));
  Trainer trainer(net, 0.1, 8);
  std::vector<std::pair<torch::Tensor, torch::Tensor>> data;
  for (int i = 0; i < 80; ++i) data.emplace_back(torch::randn({8, 20}), torch::randn({8, 5}));
  for (int epoch = 0; epoch < 2; ++epoch) {
    for (const auto& [x, y] : data) trainer.train_step(x, y);
    std::cout << "step " << trainer.global_step() << " loss " << trainer.last_loss() << std::endl;
  }
}
