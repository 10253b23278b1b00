// Classification trainer in the layout of a recipe-driven Trainer: training
// params, a loss-scaling helper standing in for torch.cuda.amp.GradScaler,
// and a _backward_step() called for every batch that also decides when the
// accumulated gradients are applied.
#include <torch/torch.h>

#include "ports_support.h"

#include <cmath>
#include <memory>

// Dynamic loss scaler: multiplies the loss, divides the gradients back before
// the step, skips steps with non-finite gradients and adapts the scale.
class GradScaler {
 public:
  explicit GradScaler(double init_scale = 65536.0) : scale_(init_scale) {}
  torch::Tensor scale(const torch::Tensor& loss) const { return loss * scale_; }
  void unscale_(torch::optim::Optimizer& opt) {
    if (unscaled_) return;
    found_inf_ = false;
    for (auto& group : opt.param_groups())
      for (auto& p : group.params()) {
        if (!p.grad().defined()) continue;
        p.grad().div_(scale_);
        if (!torch::isfinite(p.grad()).all().item<bool>()) found_inf_ = true;
      }
    unscaled_ = true;
  }
  void step(torch::optim::Optimizer& opt) {
    unscale_(opt);
    if (!found_inf_) opt.step();
  }
  void update() {
    scale_ = found_inf_ ? scale_ * 0.5 : (++good_steps_ % 2000 == 0 ? scale_ * 2.0 : scale_);
    unscaled_ = false;
  }

 private:
  double scale_;
  bool unscaled_ = false;
  bool found_inf_ = false;
  int64_t good_steps_ = 0;
};

struct TrainingParams {
  int max_epochs = 5;
  int batch_accumulate = 4;
  double initial_lr = 0.1;
  double clip_grad_norm = 5.0;
  bool mixed_precision = true;
};

struct ResNetLite : torch::nn::Module {
  ResNetLite() {
    conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).padding(1)));
    bn = register_module("bn", torch::nn::BatchNorm2d(32));
    fc = register_module("fc", torch::nn::Linear(32, 100));
  }
  torch::Tensor forward(const torch::Tensor& x) {
    return fc->forward(torch::relu(bn->forward(conv->forward(x))).mean({2, 3}));
  }
  torch::nn::Conv2d conv{nullptr};
  torch::nn::BatchNorm2d bn{nullptr};
  torch::nn::Linear fc{nullptr};
};

class Trainer {
 public:
  explicit Trainer(TrainingParams params)
      : training_params_(params), net_(std::make_shared<ResNetLite>()),
        optimizer_(net_->parameters(), torch::optim::SGDOptions(params.initial_lr).momentum(0.9).weight_decay(5e-4)) {}

  void train(const std::vector<ports::ImageBatch>& train_loader) {
    for (int epoch = 0; epoch < training_params_.max_epochs; ++epoch) {
      net_->train();
      double running = 0.0;
      for (size_t batch_idx = 0; batch_idx < train_loader.size(); ++batch_idx) {
        const auto& batch = train_loader[batch_idx];
        auto outputs = net_->forward(batch.images);
        auto loss = torch::nn::functional::cross_entropy(outputs, batch.targets) / training_params_.batch_accumulate;
        _backward_step(loss, epoch, batch_idx);
        running += loss.item<double>();
      }
      logger_.log({{"train_loss", running}, {"epoch", double(epoch)}}, epoch);
    }
  }

 private:
  void _backward_step(const torch::Tensor& loss, int epoch, size_t batch_idx) {
    scaler_.scale(loss).backward();

    if (training_params_.clip_grad_norm > 0)
      torch::nn::utils::clip_grad_norm_(net_->parameters(), training_params_.clip_grad_norm);

    if ((batch_idx + 1) % training_params_.batch_accumulate == 0) {
      scaler_.step(optimizer_);
      scaler_.update();
      optimizer_.zero_grad();
      ++optimizer_steps_;
    }
  }

  TrainingParams training_params_;
  std::shared_ptr<ResNetLite> net_;
  torch::optim::SGD optimizer_;
  GradScaler scaler_;
  int64_t optimizer_steps_ = 0;
  ports::MetricsLogger logger_{"super-gradients"};
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  TrainingParams params;
  params.batch_accumulate = args.get_int("--batch_accumulate", 4);
  auto loader = ports::make_image_batches(48, 32, 3, 32, 100);
  Trainer trainer(params);
  trainer.train(loader);
  return 0;
}
