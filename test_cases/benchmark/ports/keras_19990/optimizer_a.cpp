// A Keras-style optimizer with built-in gradient accumulation, written over
// LibTorch tensors: apply(grads) is called after every batch; it adds the
// batch gradients into accumulators and only performs the Adam update on every
// gradient_accumulation_steps-th call. Decoupled weight decay and an
// iteration counter live in the optimizer as well.
#include <torch/torch.h>

#include "ports_support.h"

#include <cmath>
#include <memory>

class AdamWAccumulating {
 public:
  AdamWAccumulating(std::vector<torch::Tensor> variables, double learning_rate, double weight_decay,
                    int gradient_accumulation_steps)
      : variables_(std::move(variables)), learning_rate_(learning_rate), weight_decay_(weight_decay),
        gradient_accumulation_steps_(gradient_accumulation_steps) {
    for (auto& v : variables_) {
      accumulators_.push_back(torch::zeros_like(v));
      m_.push_back(torch::zeros_like(v));
      v_.push_back(torch::zeros_like(v));
    }
  }

  void apply(const std::vector<torch::Tensor>& grads) {
    torch::NoGradGuard no_grad;
    ++iterations_;
    const bool is_update_step = iterations_ % gradient_accumulation_steps_ == 0;
    for (size_t k = 0; k < variables_.size(); ++k) accumulators_[k].add_(grads[k]);
    if (!is_update_step) return;
    apply_weight_decay();
    ++updates_;
    const double b1 = 0.9, b2 = 0.999, eps = 1e-7;
    for (size_t k = 0; k < variables_.size(); ++k) {
      auto g = accumulators_[k] / gradient_accumulation_steps_;
      m_[k].mul_(b1).add_(g, 1 - b1);
      v_[k].mul_(b2).addcmul_(g, g, 1 - b2);
      const double bc1 = 1 - std::pow(b1, updates_), bc2 = 1 - std::pow(b2, updates_);
      variables_[k].sub_(learning_rate_ * (m_[k] / bc1) / ((v_[k] / bc2).sqrt() + eps));
      accumulators_[k].zero_();
    }
  }

 private:
  void apply_weight_decay() {
    for (auto& var : variables_) var.mul_(1.0 - learning_rate_ * weight_decay_);
  }

  std::vector<torch::Tensor> variables_;
  double learning_rate_, weight_decay_;
  int gradient_accumulation_steps_;
  std::vector<torch::Tensor> accumulators_, m_, v_;
  int64_t iterations_ = 0;
  int64_t updates_ = 0;
};

struct Dense : torch::nn::Module {
  Dense() {
    hidden = register_module("hidden", torch::nn::Linear(16, 32));
    out = register_module("out", torch::nn::Linear(32, 1));
  }
  torch::Tensor forward(const torch::Tensor& x) { return out->forward(torch::relu(hidden->forward(x))); }
  torch::nn::Linear hidden{nullptr}, out{nullptr};
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  const int accum = args.get_int("--gradient_accumulation_steps", 3);
  auto model = std::make_shared<Dense>();
  AdamWAccumulating optimizer(model->parameters(), 1e-3, args.get_double("--weight_decay", 0.004), accum);
  ports::MetricsLogger history("fit");
  auto data = ports::make_regression_batches(300, 4, 16, 1);
  for (int epoch = 0; epoch < 5; ++epoch) {
    double total = 0.0;
    for (const auto& batch : data) {
      for (auto& p : model->parameters()) p.mutable_grad() = torch::Tensor();
      auto loss = torch::mse_loss(model->forward(batch.x), batch.y);
      loss.backward();
      std::vector<torch::Tensor> grads;
      for (auto& p : model->parameters()) grads.push_back(p.grad());
      optimizer.apply(grads);
      total += loss.item<double>();
    }
    history.log({{"loss", total / data.size()}}, epoch);
  }
  return 0;
}
