// RUN: %check_gradlint %s
// MNIST's test split holds 10000 images; in batches of 50 that is 200 batches, a multiple of
// N = 8, and drop_last keeps every batch full. Every epoch ends on a boundary: nothing is left
// over, so not even a conditional finding.
#include <torch/torch.h>

int main() {
  auto images = torch::data::datasets::MNIST("data/mnist", torch::data::datasets::MNIST::Mode::kTest)
                    .map(torch::data::transforms::Stack<>());
  auto loader = torch::data::make_data_loader(
      std::move(images), torch::data::DataLoaderOptions().batch_size(50).drop_last(true).workers(2));
  torch::nn::Linear probe(784, 10);
  torch::optim::Adam adam(probe->parameters(), torch::optim::AdamOptions(1e-3));
  const int steps_per_update = 8;
  for (int epoch = 0; epoch < 2; ++epoch) {
    int64_t index = 0;
    for (auto &batch : *loader) {
      (torch::nn::functional::cross_entropy(probe->forward(batch.data.flatten(1)), batch.target) /
       steps_per_update)
          .backward();
      index++;
      if (index % steps_per_update == 0) {
        adam.step();
        adam.zero_grad();
      }
    }
  }
}
