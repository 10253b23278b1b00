// RUN: %check_gradlint %s
// The module is trained in bfloat16 and converted to half again after the loop to be saved:
// the float32 fix changes the conversion and the inputs before and in the loop, and leaves the
// export's conversion after it alone.
#include <torch/torch.h>

void train_and_export(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
                      const std::vector<torch::Tensor> &ys) {
  model->to(torch::kBFloat16);
  // CHECK-FIXES-UNSAFE: {{^}}                      const std::vector<torch::Tensor> &ys) {{{$}}
  // CHECK-FIXES-UNSAFE-NEXT: {{^}}  model->to(torch::kFloat);{{$}}
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(1e-3));
  const int accum_steps = 8;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i].to(torch::kBFloat16)),
                                ys[i].to(torch::kBFloat16)) / accum_steps;
    // CHECK-FIXES-UNSAFE: {{^}}  for (size_t i = 0; i < xs.size(); ++i) {{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}    auto loss = torch::mse_loss(model->forward(xs[i].to(torch::kFloat)),{{$}}
    // CHECK-FIXES-UNSAFE-NEXT: {{^}}                                ys[i].to(torch::kFloat)) / accum_steps;{{$}}
    loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: backward() accumulates N = {{.*}} [accum-fp16-grad-accumulation]
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
  model->to(torch::kHalf);
  torch::save(model, "model_half.pt");
}
