// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-scheduler-per-micro-batch confirmed: update 0\.500x
// Range-for over a data loader with a separate batch counter; StepLR is stepped
// for every batch the loader yields, not for every optimizer step.
#include <torch/torch.h>

void train(torch::nn::Sequential model, const std::string &data_root) {
  auto dataset = torch::data::datasets::MNIST(data_root)
                     .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                     .map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      std::move(dataset), torch::data::DataLoaderOptions().batch_size(16));
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  torch::optim::StepLR scheduler(optimizer, /*step_size=*/1, /*gamma=*/0.5);
  const int accumulation_steps = 2;
  int batch_index = 0;
  for (auto &batch : *loader) {
    auto logits = model->forward(batch.data.view({batch.data.size(0), -1}));
    auto loss = torch::nll_loss(torch::log_softmax(logits, 1), batch.target);
    loss = loss / accumulation_steps;
    loss.backward();
    scheduler.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: learning-rate scheduler steps on every micro-batch {{.*}} [accum-scheduler-per-micro-batch]
    // CHECK-FIXES: {{^}}    loss.backward();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    if (++batch_index % accumulation_steps == 0) {{{$}}
    // CHECK-FIXES-NEXT: {{^}}      optimizer.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}      scheduler.step();{{$}}
    if (++batch_index % accumulation_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}
