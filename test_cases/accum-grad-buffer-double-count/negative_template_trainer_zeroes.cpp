// RUN: %check_gradlint %s
// Class template trainer with a buffer field: on each micro-batch the gradients are added and
// the optimizer's zero_grad() runs before the next forward pass.
#include <torch/torch.h>

template <typename Optim>
class BufferedTrainer {
 public:
  BufferedTrainer(torch::nn::Linear model, Optim &opt, int accum)
      : model_(model), opt_(opt), accum_(accum) {
    for (auto &p : model_->parameters()) buf_.push_back(torch::zeros_like(p));
  }

  void train(const std::vector<torch::Tensor> &xs, const std::vector<torch::Tensor> &ys) {
    auto params = model_->parameters();
    for (size_t i = 0; i < xs.size(); ++i) {
      auto loss = torch::mse_loss(model_->forward(xs[i]), ys[i]) / accum_;
      loss.backward();
      for (size_t k = 0; k < params.size(); ++k) buf_[k] += params[k].grad();
      opt_.zero_grad();
      if ((i + 1) % accum_ == 0) {
        for (size_t k = 0; k < params.size(); ++k) {
          params[k].mutable_grad() = buf_[k].clone();
          buf_[k].zero_();
        }
        opt_.step();
        opt_.zero_grad();
      }
    }
  }

 private:
  torch::nn::Linear model_;
  Optim &opt_;
  std::vector<torch::Tensor> buf_;
  int accum_;
};

void run(torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
         const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(model->parameters(), 0.1);
  BufferedTrainer<torch::optim::SGD> trainer(model, sgd, 2);
  trainer.train(xs, ys);
}
