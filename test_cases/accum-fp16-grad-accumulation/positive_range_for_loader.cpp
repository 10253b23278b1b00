// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation confirmed: in float16 .grad
// Range-for over a data loader with a separate micro-batch counter; the network was cast
// to float16 before training, so gradients of 8 micro-batches are summed in float16.
#include <torch/torch.h>

void train_loader(torch::nn::Sequential &net, std::vector<torch::data::Example<>> &loader, torch::optim::SGD &sgd) {
  net->to(torch::kFloat16);
  // CHECK-FIXES-UNSAFE: {{^}}void train_loader(torch::nn::Sequential &net, std::vector<torch::data::Example<>> &loader, torch::optim::SGD &sgd) {{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  net->to(torch::kFloat32);{{$}}
  const int accum = 8;
  int seen = 0;
  for (auto &batch : loader) {
    auto out = net->forward(batch.data.to(torch::kFloat16));
    auto loss = torch::mse_loss(out, batch.target.to(torch::kFloat16)) / accum;
    // CHECK-FIXES-UNSAFE: {{^}}  for (auto &batch : loader) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto out = net->forward(batch.data.to(torch::kFloat32));{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto loss = torch::mse_loss(out, batch.target.to(torch::kFloat32)) / accum;{{$}}
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates {{.*}} [accum-fp16-grad-accumulation]
    seen++;
    if (seen % accum == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}
