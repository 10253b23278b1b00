// RUN: %check_gradlint %s
// Range-for over a data loader with a separate counter reset at the boundary
// (`if (++micro == N) { ...; micro = 0; }`); the loss is never divided.
#include <torch/torch.h>

template <typename Loader>
void epoch(torch::nn::Sequential net, torch::optim::SGD &sgd, Loader &loader) {
  constexpr int kMicro = 4;
  int micro = 0;
  for (auto &batch : loader) {
    auto loss = torch::nll_loss(net->forward(batch.data), batch.target);
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    auto loss = torch::nll_loss(net->forward(batch.data), batch.target);{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (loss / kMicro).backward();{{$}}
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
