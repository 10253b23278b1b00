// RUN: %check_gradlint %s
// Ordinary MNIST loop: zero_grad / backward / step on every batch. There is no
// accumulation window, so resetting every iteration is the correct thing to do.
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() : fc1(register_module("fc1", torch::nn::Linear(784, 64))),
          fc2(register_module("fc2", torch::nn::Linear(64, 10))) {}
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x.reshape({x.size(0), 784})));
    return torch::log_softmax(fc2->forward(x), 1);
  }
  torch::nn::Linear fc1, fc2;
};

void train(std::shared_ptr<Net> net) {
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::MNIST("./data").map(torch::data::transforms::Stack<>()), 64);
  torch::optim::SGD optimizer(net->parameters(), 0.01);
  for (size_t epoch = 1; epoch <= 10; ++epoch) {
    size_t batch_index = 0;
    for (auto &batch : *loader) {
      optimizer.zero_grad();
      torch::Tensor prediction = net->forward(batch.data);
      torch::Tensor loss = torch::nll_loss(prediction, batch.target);
      loss.backward();
      optimizer.step();
      if (++batch_index % 100 == 0)
        std::cout << "Epoch " << epoch << " | Loss " << loss.item<float>() << std::endl;
    }
  }
}
