// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: [0-9.]+x
// Range-for over a LibTorch data loader with a separate step counter; the optimizer is
// held in a unique_ptr, and nothing resets the gradients (the fix-it keeps the `->`).
#include <torch/torch.h>

void train_on_loader(torch::nn::Linear net, torch::Tensor features, torch::Tensor labels) {
  auto dataset = torch::data::datasets::TensorDataset({features, labels})
                     .map(torch::data::transforms::Stack<torch::data::TensorExample>());
  auto loader = torch::data::make_data_loader(std::move(dataset), /*batch_size=*/4);
  auto optimizer =
      std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(0.02));
  const int64_t accum_steps = 4;
  int64_t seen = 0;
  for (auto &batch : *loader) {
    auto output = net->forward(batch.data);
    auto loss = torch::mse_loss(output, batch.data.narrow(1, 0, 1)) / accum_steps;
    loss.backward();
    if (++seen % accum_steps == 0) {
      optimizer->step();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
      // CHECK-FIXES: {{^}}      optimizer->step();{{$}}
      // CHECK-FIXES-NEXT: {{^}}      optimizer->zero_grad();{{$}}
    }
  }
}
