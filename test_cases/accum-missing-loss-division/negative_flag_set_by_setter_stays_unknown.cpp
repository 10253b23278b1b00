// RUN: %check_gradlint %s
// The flag starts true, but a setter may change it at any time before training: its value is
// not known, so the division under it may run and nothing is reported.
#include <torch/torch.h>

class Loop {
public:
  explicit Loop(torch::nn::Linear model) : model_(model), adam_(model->parameters()) {}
  void set_model_scales_loss(bool on) { model_scales_loss_ = on; }

  void run(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys, int n) {
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(model_->forward(xs[i]), ys[i]);
      if (!model_scales_loss_)
        loss = loss / n;
      loss.backward();
      if ((i + 1) % n == 0) {
        adam_.step();
        adam_.zero_grad();
      }
    }
  }

private:
  torch::nn::Linear model_;
  torch::optim::Adam adam_;
  bool model_scales_loss_ = true;
};

void train(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys, bool legacy) {
  Loop loop(torch::nn::Linear(4, 1));
  loop.set_model_scales_loss(legacy);
  loop.run(xs, ys, 4);
}
