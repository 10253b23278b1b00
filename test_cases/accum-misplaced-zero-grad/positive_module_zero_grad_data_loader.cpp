// RUN: %check_gradlint %s
// Module::zero_grad() on every micro-batch of a range-for over a data loader with a
// separate counter: the module-level reset discards the window just as Optimizer's does.
#include <torch/torch.h>

template <typename Loader>
void epoch(torch::nn::Sequential net, torch::optim::SGD &sgd, Loader &loader) {
  const int window = 16;
  int seen = 0;
  for (auto &batch : loader) {
    net->zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient reset runs on every micro-batch {{.*}} [accum-misplaced-zero-grad]
    // CHECK-FIXES: {{^}}  for (auto &batch : loader) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}    auto out = net->forward(batch.data);{{$}}
    auto out = net->forward(batch.data);
    auto loss = torch::nll_loss(out, batch.target) / window;
    loss.backward();
    if (++seen % window == 0)
      sgd.step();
    // CHECK-FIXES: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (++seen % window == 0) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      sgd.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}      net->zero_grad();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    }{{$}}
  }
}

void run(torch::nn::Sequential net, torch::optim::SGD &sgd) {
  auto data = torch::data::datasets::MNIST("./mnist").map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(std::move(data), 32);
  epoch(net, sgd, *loader);
}
