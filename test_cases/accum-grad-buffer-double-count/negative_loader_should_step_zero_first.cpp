// RUN: %check_gradlint %s
// Range-for over a data loader with a separate counter and a should_step() helper; the module's
// gradients are zeroed before every backward(), the buffer alone spans the window.
#include <torch/torch.h>

static bool should_step(int64_t n, int64_t every) { return n % every == 0; }

void train_mnist(torch::nn::Sequential model, const std::string &root) {
  auto dataset = torch::data::datasets::MNIST(root).map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      std::move(dataset), torch::data::DataLoaderOptions().batch_size(16));
  torch::optim::SGD opt(model->parameters(), 0.01);
  const int64_t every = 4;
  auto params = model->parameters();
  std::vector<torch::Tensor> gbuf;
  for (const auto &p : params) gbuf.push_back(torch::zeros_like(p));
  int64_t seen = 0;
  for (auto &batch : *loader) {
    model->zero_grad();
    auto logits = model->forward(batch.data.flatten(1));
    auto loss = torch::nn::functional::cross_entropy(logits, batch.target);
    loss.backward();
    for (size_t j = 0; j < params.size(); ++j) {
      gbuf[j] += params[j].grad();
    }
    ++seen;
    if (should_step(seen, every)) {
      for (size_t j = 0; j < params.size(); ++j) {
        params[j].mutable_grad() = gbuf[j] / every;
        gbuf[j].zero_();
      }
      opt.step();
    }
  }
}
