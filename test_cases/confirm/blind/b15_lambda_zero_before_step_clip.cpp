// TRUTH: buggy (two bugs): in the boundary branch zero_grad() runs BEFORE step(), so every step applies a zero gradient (huge numerical effect: with momentum SGD from a zero buffer the parameters never move), and clip_grad_norm_(1.0) runs on every micro-batch (effect only if a partial sum's norm exceeds 1.0; the loss is / 4 so probably small or none).
#include <torch/torch.h>

#include <iostream>

struct Toy : torch::data::datasets::Dataset<Toy> {
  torch::data::Example<> get(size_t) override { return {torch::randn({3}), torch::randn({1})}; }
  torch::optional<size_t> size() const override { return 256; }
};

int main() {
  torch::nn::Sequential model(torch::nn::Linear(3, 9), torch::nn::ReLU(), torch::nn::Linear(9, 1));
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9).dampening(0.1));
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      Toy{}.map(torch::data::transforms::Stack<>()), 8);

  constexpr int kMicroBatches = 4;
  int micro = 0;
  auto train_micro = [&](const torch::Tensor& x, const torch::Tensor& y) -> float {
    auto loss = torch::mse_loss(model->forward(x), y) / kMicroBatches;
    loss.backward();
    torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
    if (++micro == kMicroBatches) {
      sgd.zero_grad();
      sgd.step();
      micro = 0;
    }
    return loss.item<float>();
  };

  for (int epoch = 0; epoch < 4; ++epoch) {
    float total = 0;
    for (auto& batch : *loader) total += train_micro(batch.data, batch.target);
    std::cout << "epoch " << epoch << " " << total << std::endl;
  }
}

// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds
