// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: 2 of 20 \(10\.0%\) micro-batches never reached a step
// Early `continue` unless at a window boundary: step() only runs on multiples of N, so the last
// num_batches % N micro-batches of the epoch are never stepped (and carried into the next epoch).
#include <torch/torch.h>

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &labels, int epochs) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  const int64_t accumulation = 4;
  const int64_t num_batches = static_cast<int64_t>(inputs.size());
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (int64_t step = 0; step < num_batches; ++step) {
      auto loss = torch::mse_loss(model->forward(inputs[step]), labels[step]);
      (loss / accumulation).backward();
      if ((step + 1) % accumulation != 0)
        continue;
      // CHECK-MESSAGES: :[[@LINE-2]]:11: warning: (conditional) the last partial window of every epoch never reaches {{.*}} [accum-trailing-micro-batches]
      // CHECK-FIXES-UNSAFE: {{^}}      auto loss = torch::mse_loss(model->forward(inputs[step]), labels[step]);{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      (loss / static_cast<double>(step >= num_batches - num_batches % accumulation ? num_batches % accumulation : accumulation)).backward();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if ((step + 1) % accumulation != 0 && step + 1 != num_batches){{$}}
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}
