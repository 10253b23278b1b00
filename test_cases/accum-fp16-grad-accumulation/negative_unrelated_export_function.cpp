// RUN: %check_gradlint %s
// The half-precision cast lives in export_for_inference(), which train() never calls and
// which does not call train(): the training loop's model stays float32.
#include <torch/torch.h>

void export_for_inference(torch::nn::Linear model, const std::string &path) {
  model->to(torch::kHalf);
  model->eval();
  torch::save(model, path);
}

void train(torch::nn::Linear &model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD opt(model->parameters(), 0.05);
  const int accum = 8;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / accum;
    loss.backward();
    if (i % accum == accum - 1) {
      opt.step();
      opt.zero_grad();
    }
  }
}
