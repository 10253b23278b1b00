// TRUTH: correct: DataLoader loop with a separate micro-batch counter, loss / accum_steps, clip_grad_norm_(1.0) once at the boundary, zero_grad after step; no numerical effect expected (matches the large-batch reference).
#include <torch/torch.h>

#include <cstdio>
#include <string>

class RegressionSet : public torch::data::datasets::Dataset<RegressionSet> {
 public:
  explicit RegressionSet(int64_t n) : x_(torch::randn({n, 32})), y_(torch::randn({n, 1})) {}
  torch::data::Example<> get(size_t i) override { return {x_[i], y_[i]}; }
  torch::optional<size_t> size() const override { return x_.size(0); }

 private:
  torch::Tensor x_, y_;
};

int main(int argc, char** argv) {
  int accum_steps = argc > 1 ? std::stoi(argv[1]) : 8;
  auto model = torch::nn::Sequential(torch::nn::Linear(32, 64), torch::nn::ReLU(),
                                     torch::nn::Linear(64, 1));
  torch::optim::AdamW opt(model->parameters(),
                          torch::optim::AdamWOptions(3e-4).weight_decay(0.01));

  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      RegressionSet(4096).map(torch::data::transforms::Stack<>()), /*batch_size=*/32);

  int micro = 0;
  opt.zero_grad();
  for (int epoch = 0; epoch < 5; ++epoch) {
    for (auto& batch : *loader) {
      auto pred = model->forward(batch.data);
      auto loss = torch::mse_loss(pred, batch.target);
      (loss / accum_steps).backward();
      ++micro;
      if (micro % accum_steps == 0) {
        torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
        opt.step();
        opt.zero_grad();
      }
    }
    std::printf("epoch %d done\n", epoch);
  }
  return 0;
}
