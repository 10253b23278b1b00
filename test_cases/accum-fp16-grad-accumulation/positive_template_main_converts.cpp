// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation confirmed: in bfloat16 .grad
// A function template runs the accumulation loop (4 micro-batches per step); main() casts
// the Linear to bfloat16 and then instantiates it, so the template's .grad is bfloat16.
#include <torch/torch.h>

template <typename Module>
void train_generic(Module &net, const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(net->parameters(), 0.1);
  constexpr int kMicro = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(net->forward(xs[i]), ys[i]) / kMicro;
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates {{.*}} [accum-fp16-grad-accumulation]
    if ((i + 1) % kMicro == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}

int main() {
  torch::nn::Linear lin(8, 4);
  lin->to(torch::kBFloat16);
  // CHECK-FIXES-UNSAFE: {{^}}  torch::nn::Linear lin(8, 4);{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  lin->to(torch::kFloat);{{$}}
  std::vector<torch::Tensor> xs, ys;
  for (int k = 0; k < 12; ++k) {
    xs.push_back(torch::randn({4, 8}, torch::kBFloat16));
    ys.push_back(torch::randn({4, 4}, torch::kBFloat16));
    // CHECK-FIXES-UNSAFE: {{^}}  for (int k = 0; k < 12; ++k) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    xs.push_back(torch::randn({4, 8}, torch::kFloat));{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    ys.push_back(torch::randn({4, 4}, torch::kFloat));{{$}}
  }
  train_generic(lin, xs, ys);
}
