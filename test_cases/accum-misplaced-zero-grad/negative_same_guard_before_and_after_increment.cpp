// RUN: %check_gradlint %s
// The reset and the step test the same text, `seen % accum == 0`, but the reset is read
// before `++seen` and the step after it: the reset holds on the first micro-batch of each
// window, the step on its last. A window-start reset, not one in the boundary branch.
#include <torch/torch.h>

struct Sampler {
  bool next(torch::Tensor &x, torch::Tensor &y);
};

void train(torch::nn::Linear classifier, Sampler &sampler, int accum) {
  torch::optim::SGD sgd(classifier->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));
  torch::Tensor x, y;
  int64_t seen = 0;
  while (sampler.next(x, y)) {
    if (seen % accum == 0)
      sgd.zero_grad();
    auto loss = torch::cross_entropy_loss(classifier->forward(x), y);
    (loss / accum).backward();
    seen++;
    if (seen % accum == 0)
      sgd.step();
  }
}
