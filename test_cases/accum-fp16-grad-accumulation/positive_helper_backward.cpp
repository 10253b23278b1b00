// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-fp16-grad-accumulation confirmed: in float16 .grad
// A helper function runs forward and backward() for one micro-batch; the caller casts the
// model to float16 and steps every 8 micro-batches, so the helper's backward() sums in float16.
#include <torch/torch.h>

static void accumulate_grads(torch::nn::Linear &net, const torch::Tensor &x, const torch::Tensor &y,
                             int accum) {
  auto loss = torch::mse_loss(net->forward(x), y) / accum;
  loss.backward();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: backward() accumulates {{.*}} [accum-fp16-grad-accumulation]
}

void train(torch::nn::Linear &net, const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
  net->to(torch::kFloat16);
  // CHECK-FIXES-UNSAFE: {{^}}void train(torch::nn::Linear &net, const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  net->to(torch::kFloat32);{{$}}
  torch::optim::SGD opt(net->parameters(), 0.05);
  const int accum = 8;
  for (size_t i = 0; i < xs.size(); ++i) {
    accumulate_grads(net, xs[i].to(torch::kFloat16), ys[i].to(torch::kFloat16), accum);
    // CHECK-FIXES-UNSAFE: {{^}}  for (size_t i = 0; i < xs.size(); ++i) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    accumulate_grads(net, xs[i].to(torch::kFloat32), ys[i].to(torch::kFloat32), accum);{{$}}
    if ((i + 1) % accum == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
