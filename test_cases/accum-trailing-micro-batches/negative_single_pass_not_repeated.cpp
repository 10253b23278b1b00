// RUN: %check_gradlint %s
// One pass over a data loader in a function nothing in the file calls in a loop: the loop's
// last partial window is lost once, at the end of training, which is not reported.
#include <torch/torch.h>

template <typename DataLoader>
void train_pass(torch::nn::Sequential &model, DataLoader &loader, torch::optim::SGD &opt) {
  const int accumulation_steps = 4;
  size_t batch_idx = 0;
  for (auto &batch : *loader) {
    auto out = model->forward(batch.data);
    auto loss = torch::nn::functional::cross_entropy(out, batch.target) / accumulation_steps;
    loss.backward();
    if ((batch_idx + 1) % accumulation_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
    ++batch_idx;
  }
}
