// RUN: %check_gradlint %s
// A template: the inner while loop counts m up from 0 to n, so it runs n
// times, and the loss is multiplied by 1.0 / n. Correct.
#include <torch/torch.h>

template <typename Model>
void train(Model &model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &batches, int n) {
  for (const auto &batch : batches) {
    auto pieces = batch.chunk(n);
    int m = 0;
    while (m < n) {
      auto loss = model->forward(pieces[m]).pow(2).mean();
      auto scaled = loss * (1.0 / n);
      scaled.backward();
      ++m;
    }
    opt.step();
    opt.zero_grad();
  }
}

void run(torch::nn::Linear model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &xs) {
  train(model, opt, xs, 4);
}
