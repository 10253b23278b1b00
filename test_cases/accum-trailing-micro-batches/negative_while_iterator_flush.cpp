// RUN: %check_gradlint %s
// While loop over an iterator with a per-epoch counter, and a flush of the open window after it.
#include <torch/torch.h>

void train(torch::nn::Linear &lin, std::vector<std::pair<torch::Tensor, torch::Tensor>> &samples,
           int epochs) {
  torch::optim::SGD opt(lin->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  const int n_accum = 3;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    int count = 0;
    auto cur = samples.begin();
    while (cur != samples.end()) {
      auto loss = torch::l1_loss(lin->forward(cur->first), cur->second) / n_accum;
      loss.backward();
      ++cur;
      if (++count % n_accum == 0) {
        opt.step();
        opt.zero_grad();
      }
    }
    if (count % n_accum != 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
