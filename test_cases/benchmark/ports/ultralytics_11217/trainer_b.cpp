// Detection training loop in the layout of a BaseTrainer: a nominal batch size
// `nbs` decides how many loader batches are accumulated per optimizer step,
// the loss is a per-image sum (mean criterion times batch size), and an EMA of
// the weights is refreshed after every optimizer step.
#include <torch/torch.h>

#include "ports_support.h"

#include <algorithm>
#include <cmath>
#include <memory>

struct DetectionModel : torch::nn::Module {
  DetectionModel() {
    stem = register_module("stem", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).stride(2).padding(1)));
    neck = register_module("neck", torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 3).stride(2).padding(1)));
    head = register_module("head", torch::nn::Linear(32, 8));
  }
  // Returns the criterion mean times the batch size (a sum over images) and the detached items.
  std::pair<torch::Tensor, torch::Tensor> forward(const ports::ImageBatch& batch) {
    auto x = torch::silu(neck->forward(torch::silu(stem->forward(batch.images))));
    auto preds = head->forward(x.mean({2, 3}));
    auto loss = torch::nn::functional::cross_entropy(preds, batch.targets);
    const auto bs = batch.images.size(0);
    return {loss * bs, loss.detach()};
  }
  torch::nn::Conv2d stem{nullptr}, neck{nullptr};
  torch::nn::Linear head{nullptr};
};

class ModelEMA {
 public:
  explicit ModelEMA(const std::shared_ptr<DetectionModel>& model) : model_(model) {
    for (auto& p : model->parameters()) shadow_.push_back(p.detach().clone());
  }
  void update() {
    torch::NoGradGuard ng;
    ++updates_;
    const double d = 0.9999 * (1 - std::exp(-updates_ / 2000.0));
    auto params = model_->parameters();
    for (size_t k = 0; k < params.size(); ++k) shadow_[k].mul_(d).add_(params[k].detach(), 1 - d);
  }

 private:
  std::shared_ptr<DetectionModel> model_;
  std::vector<torch::Tensor> shadow_;
  int64_t updates_ = 0;
};

class BaseTrainer {
 public:
  BaseTrainer(int epochs, int batch_size) : epochs_(epochs), batch_size_(batch_size) {
    model_ = std::make_shared<DetectionModel>();
    accumulate_ = std::max<int>(std::lround(static_cast<double>(nbs_) / batch_size_), 1);
    const double weight_decay = 5e-4 * batch_size_ * accumulate_ / nbs_;
    optimizer_ = std::make_unique<torch::optim::SGD>(
        model_->parameters(), torch::optim::SGDOptions(0.01).momentum(0.937).nesterov(true).weight_decay(weight_decay));
    scheduler_ = std::make_unique<torch::optim::StepLR>(*optimizer_, 1, 0.95);
    ema_ = std::make_unique<ModelEMA>(model_);
  }

  void _do_train(const std::vector<ports::ImageBatch>& train_loader) {
    const int64_t nb = train_loader.size();
    int64_t last_opt_step = -1;
    optimizer_->zero_grad();
    for (int epoch = 0; epoch < epochs_; ++epoch) {
      model_->train();
      optimizer_->zero_grad();
      torch::Tensor tloss;
      for (int64_t i = 0; i < nb; ++i) {
        const int64_t ni = i + nb * epoch;
        auto [loss, loss_items] = model_->forward(train_loader[i]);
        tloss = tloss.defined() ? (tloss * i + loss_items) / (i + 1) : loss_items;
        loss.backward();
        if (ni - last_opt_step >= accumulate_) {
          optimizer_step();
          last_opt_step = ni;
        }
      }
      scheduler_->step();
      log_.log({{"epoch", double(epoch)}, {"box_loss", tloss.item<double>()}}, epoch);
    }
  }

 private:
  void optimizer_step() {
    torch::nn::utils::clip_grad_norm_(model_->parameters(), 10.0);
    optimizer_->step();
    optimizer_->zero_grad();
    ema_->update();
  }

  int epochs_, batch_size_;
  const int nbs_ = 64;
  int accumulate_ = 1;
  std::shared_ptr<DetectionModel> model_;
  std::unique_ptr<torch::optim::SGD> optimizer_;
  std::unique_ptr<torch::optim::StepLR> scheduler_;
  std::unique_ptr<ModelEMA> ema_;
  ports::MetricsLogger log_{"detect"};
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  const int batch = args.get_int("--batch", 16);
  auto loader = ports::make_image_batches(30, batch, 3, 64, 8);
  BaseTrainer trainer(args.get_int("--epochs", 10), batch);
  trainer._do_train(loader);
  return 0;
}
