// RUN: %check_gradlint %s
// `(loss / N).backward()` in a range-for over a data loader with a pre-increment
// counter guard.
#include <torch/torch.h>

template <typename Loader>
void epoch(torch::nn::Sequential net, torch::optim::SGD &sgd, Loader &loader) {
  constexpr int kMicro = 4;
  int micro = 0;
  for (auto &batch : loader) {
    auto loss = torch::nll_loss(net->forward(batch.data), batch.target);
    (loss / kMicro).backward();
    if (++micro == kMicro) {
      sgd.step();
      sgd.zero_grad();
      micro = 0;
    }
  }
}

void run(torch::nn::Sequential net, torch::optim::SGD &sgd) {
  auto data = torch::data::datasets::MNIST("./mnist").map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(data), 32);
  epoch(net, sgd, *loader);
}
