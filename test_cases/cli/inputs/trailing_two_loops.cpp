// Two loops with the same window guard: the first runs a batch count the code does not show
// (xs.size()), so its trailing finding is conditional; the second runs 10 batches with N = 4,
// so its trailing finding is definite.
#include <torch/torch.h>

void unknown_count(torch::nn::Linear &model, std::vector<torch::Tensor> &xs, int epochs) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 4;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (size_t i = 0; i < xs.size(); ++i) {
      (model->forward(xs[i]).pow(2).mean() / accum).backward();
      if ((i + 1) % accum == 0) {
        opt.step();
        opt.zero_grad();
      }
    }
  }
}

void known_count(torch::nn::Linear &model, int epochs) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int accum = 4;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (int i = 0; i < 10; ++i) {
      (model->forward(torch::randn({2, 10})).pow(2).mean() / accum).backward();
      if ((i + 1) % accum == 0) {
        opt.step();
        opt.zero_grad();
      }
    }
  }
}
