// RUN: %check_gradlint %s
// model->zero_grad() at the top of every micro-batch, before backward(): .grad holds only the
// current micro-batch when it is added to the buffer. The buffer carries the window.
#include <torch/torch.h>

void train(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.1);
  const int window = 2;
  int count = 0;
  auto params = model->parameters();
  std::vector<torch::Tensor> acc;
  for (auto &p : params) acc.push_back(torch::zeros_like(p));
  for (size_t i = 0; i < xs.size(); ++i) {
    model->zero_grad();
    auto loss = torch::smooth_l1_loss(model->forward(xs[i]), ys[i]) / window;
    loss.backward();
    for (size_t k = 0; k < params.size(); ++k) {
      acc[k] = acc[k] + params[k].grad();
    }
    if (++count == window) {
      for (size_t k = 0; k < params.size(); ++k) {
        params[k].mutable_grad() = acc[k].clone();
        acc[k].zero_();
      }
      opt.step();
      count = 0;
    }
  }
}
