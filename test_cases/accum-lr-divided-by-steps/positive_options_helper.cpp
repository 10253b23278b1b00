// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-lr-divided-by-steps confirmed: update 0\.500x
// A helper builds the AdamW options and divides the learning rate by the
// project-wide accumulation constant; the loop runs over a data loader. The lr
// is not a constant: the confirmation runs the default lr divided by N.
#include <torch/torch.h>

constexpr int kAccumulationSteps = 2;

static torch::optim::AdamWOptions make_options(double lr) {
  return torch::optim::AdamWOptions(lr / kAccumulationSteps).weight_decay(0.05);
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: learning rate of an adaptive optimizer is divided by the accumulation steps {{.*}} [accum-lr-divided-by-steps]
  // CHECK-FIXES: {{^}}static torch::optim::AdamWOptions make_options(double lr) {{{$}}
  // CHECK-FIXES-NEXT: {{^}}  return torch::optim::AdamWOptions(lr).weight_decay(0.05);{{$}}
}

void train(torch::nn::Sequential model, const std::string &data_root) {
  auto dataset = torch::data::datasets::MNIST(data_root).map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      std::move(dataset), 16);
  torch::optim::AdamW optimizer(model->parameters(), make_options(1e-3));
  int batch_index = 0;
  for (auto &batch : *loader) {
    auto logits = model->forward(batch.data.view({batch.data.size(0), -1}));
    auto loss = torch::nll_loss(torch::log_softmax(logits, 1), batch.target) / kAccumulationSteps;
    loss.backward();
    if (++batch_index % kAccumulationSteps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}
