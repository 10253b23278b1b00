// MNIST-style loop with Sequential, data loader, gradient accumulation.
#include <torch/torch.h>
#include <iostream>

void train_mnist(const std::string& root) {
  torch::manual_seed(1);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Sequential model(torch::nn::Flatten(), torch::nn::Linear(784, 128), torch::nn::ReLU(),
                              torch::nn::Dropout(0.2), torch::nn::Linear(128, 10));
  model->to(device);
  auto dataset = torch::data::datasets::MNIST(root)
                     .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                     .map(torch::data::transforms::Stack<>());
  const size_t n = dataset.size().value();
  auto loader = torch::data::make_data_loader(std::move(dataset),
                                              torch::data::DataLoaderOptions().batch_size(64).workers(2));
  torch::optim::SGD opt(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  const int accum = 4;
  int step = 0;
  for (int epoch = 0; epoch < 3; ++epoch) {
    model->train();
    for (auto& batch : *loader) {
      auto data = batch.data.to(device);
      auto target = batch.target.to(device);
      auto out = model->forward(data);
      auto loss = torch::nll_loss(torch::log_softmax(out, 1), target) / accum;
      loss.backward();
      if (++step % accum == 0) {
        torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
        opt.step();
        opt.zero_grad();
      }
      if (step % 100 == 0) std::cout << "loss " << loss.item<float>() << " of " << n << '\n';
    }
  }
  torch::save(model, "m.pt");
}

int main() { train_mnist("./data"); }
