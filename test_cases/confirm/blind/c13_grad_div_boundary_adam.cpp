// TRUTH: correct: undivided loss, but every p.grad() is divided by accumulation_steps (6) in the boundary branch before step(); no numerical effect expected (Adam; the gradient equals the large-batch mean gradient).
#include <torch/torch.h>

#include <iostream>

struct Pairs : torch::data::datasets::Dataset<Pairs> {
  torch::Tensor a = torch::randn({600, 4});
  torch::Tensor b = torch::randn({600, 2});
  torch::data::Example<> get(size_t index) override { return {a[index], b[index]}; }
  c10::optional<size_t> size() const override { return 600; }
};

int main() {
  auto net = torch::nn::Sequential(torch::nn::Linear(4, 8), torch::nn::Tanh(), torch::nn::Linear(8, 2));
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(1e-3).betas({0.9, 0.999}));

  auto data_loader = torch::data::make_data_loader(
      Pairs().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(10).workers(0));

  const int accumulation_steps = 6;
  int64_t seen = 0;
  for (size_t epoch = 1; epoch <= 3; ++epoch) {
    for (torch::data::Example<>& batch : *data_loader) {
      torch::Tensor output = net->forward(batch.data);
      torch::Tensor loss = torch::l1_loss(output, batch.target);
      loss.backward();
      seen++;
      if (seen % accumulation_steps == 0) {
        for (auto& p : net->parameters()) {
          if (p.grad().defined()) p.grad().div_(accumulation_steps);
        }
        adam.step();
        adam.zero_grad();
      }
    }
    std::cout << "Epoch " << epoch << " finished" << std::endl;
  }
}
