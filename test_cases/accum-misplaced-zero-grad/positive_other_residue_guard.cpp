// RUN: %check_gradlint %s
// A guarded reset on the wrong residue: `i % N == 1` is the SECOND micro-batch of
// the window, after the first one's backward(), so that gradient is discarded.
#include <torch/torch.h>

void train(torch::nn::Linear model, std::vector<torch::Tensor> inputs,
           std::vector<torch::Tensor> labels) {
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  const int N = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i % N == 1)
      sgd.zero_grad();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradient reset runs between backward() and step() {{.*}} [accum-misplaced-zero-grad]
    // CHECK-FIXES-UNSAFE: {{^}}  for (size_t i = 0; i < inputs.size(); ++i) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto loss = torch::mse_loss(model(inputs[i]), labels[i]) / N;{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    if ((i + 1) % N == 0) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      sgd.step();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}      sgd.zero_grad();{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    }{{$}}
    auto loss = torch::mse_loss(model(inputs[i]), labels[i]) / N;
    loss.backward();
    if ((i + 1) % N == 0)
      sgd.step();
  }
}
