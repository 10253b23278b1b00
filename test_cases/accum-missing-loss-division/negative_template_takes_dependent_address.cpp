// RUN: %check_gradlint %s
// A correct loop in a function template over the batch type that takes the address of a
// dependent value (`&batch`) and binds a dependent reference: the model must read (and not
// crash on) expressions whose types are not known until instantiation.
#include <torch/torch.h>
#include <vector>

template <typename Batch>
const Batch *first_of(const std::vector<Batch> &batches) {
  return batches.empty() ? nullptr : &batches.front();
}

template <typename Batch, typename Net>
void train(Net &net, std::vector<Batch> &batches, int accumulation) {
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.1));
  const Batch *start = first_of(batches);
  (void)start;
  for (size_t i = 0; i < batches.size(); ++i) {
    auto *current = &batches[i];
    auto &target = current->y;
    (torch::mse_loss(net->forward(current->x), target) / accumulation).backward();
    if ((i + 1) % accumulation == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}
