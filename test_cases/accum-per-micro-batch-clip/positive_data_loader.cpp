// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-per-micro-batch-clip not-confirmed: never binds
// Range-for over a LibTorch data loader with a separate counter; the clip above
// the boundary guard runs on every micro-batch.
#include <torch/torch.h>

void train(torch::nn::Sequential model, const std::string &root) {
  auto dataset = torch::data::datasets::MNIST(root).map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      std::move(dataset), 32);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  const int accum_steps = 4;
  int batch_idx = 0;
  for (auto &batch : *loader) {
    auto output = model->forward(batch.data.view({batch.data.size(0), -1}));
    auto loss = torch::nll_loss(torch::log_softmax(output, 1), batch.target) / accum_steps;
    loss.backward();
    torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradient clipping runs on every micro-batch {{.*}} [accum-per-micro-batch-clip]
    // CHECK-FIXES: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (++batch_idx % accum_steps == 0) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);{{$}}
    if (++batch_idx % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}
