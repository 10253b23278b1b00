// An iteration-based runner with hooks, shaped after the MMCV runner: the
// optimizer hook that accumulates gradients over `cumulative_iters` iterations
// is registered like any other hook and does backward(), clipping and step()
// in after_train_iter(). Training can resume from a saved iteration.
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>
#include <optional>

class IterBasedRunner;

class Hook {
 public:
  virtual ~Hook() = default;
  virtual void before_run(IterBasedRunner&) {}
  virtual void after_train_iter(IterBasedRunner&) {}
};

struct SegHead : torch::nn::Module {
  SegHead() {
    backbone = register_module("backbone", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 24, 3).padding(1)));
    decode = register_module("decode", torch::nn::Conv2d(torch::nn::Conv2dOptions(24, 5, 1)));
  }
  torch::Tensor train_step(const ports::ImageBatch& batch) {
    auto logits = decode->forward(torch::relu(backbone->forward(batch.images))).mean({2, 3});
    return torch::nn::functional::cross_entropy(logits, batch.targets);
  }
  torch::nn::Conv2d backbone{nullptr}, decode{nullptr};
};

class IterBasedRunner {
 public:
  IterBasedRunner(std::shared_ptr<SegHead> model, int max_iters)
      : model(std::move(model)), max_iters(max_iters),
        optimizer(this->model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9).weight_decay(5e-4)) {}

  void register_hook(std::shared_ptr<Hook> hook) { hooks_.push_back(std::move(hook)); }

  void resume(int checkpoint_iter) {
    iter = checkpoint_iter;
    logger.info("resumed from iter " + std::to_string(iter));
  }

  void run(const std::vector<ports::ImageBatch>& data_loader) {
    for (auto& h : hooks_) h->before_run(*this);
    while (iter < max_iters) {
      model->train();
      outputs_loss = model->train_step(data_loader[iter % data_loader.size()]);
      for (auto& h : hooks_) h->after_train_iter(*this);
      ++iter;
    }
  }

  std::shared_ptr<SegHead> model;
  int iter = 0;
  int max_iters;
  torch::optim::SGD optimizer;
  torch::Tensor outputs_loss;
  ports::MetricsLogger logger{"mmseg"};

 private:
  std::vector<std::shared_ptr<Hook>> hooks_;
};

class GradientCumulativeOptimizerHook : public Hook {
 public:
  GradientCumulativeOptimizerHook(std::optional<double> grad_clip, int cumulative_iters)
      : grad_clip_(grad_clip), cumulative_iters_(cumulative_iters) {}

  void after_train_iter(IterBasedRunner& runner) override {
    if (!initialized_) init(runner);
    int loss_factor;
    if (runner.iter < divisible_iters_)
      loss_factor = cumulative_iters_;
    else
      loss_factor = remainder_iters_;
    auto loss = runner.outputs_loss / loss_factor;
    loss.backward();

    const bool every_n = (runner.iter + 1) % cumulative_iters_ == 0;
    const bool is_last = runner.iter + 1 == runner.max_iters;
    if (every_n || is_last) {
      if (grad_clip_) torch::nn::utils::clip_grad_norm_(runner.model->parameters(), *grad_clip_);
      runner.optimizer.step();
      runner.optimizer.zero_grad();
      if (runner.iter % 50 == 0) runner.logger.log({{"loss", loss.item<double>() * loss_factor}}, runner.iter);
    }
  }

 private:
  void init(IterBasedRunner& runner) {
    if (runner.iter % cumulative_iters_ != 0)
      runner.logger.info("resume iter is not divisible by cumulative_iters");
    const int residual_iters = runner.max_iters - runner.iter;
    divisible_iters_ = residual_iters / cumulative_iters_ * cumulative_iters_;
    remainder_iters_ = residual_iters - divisible_iters_;
    initialized_ = true;
  }

  std::optional<double> grad_clip_;
  int cumulative_iters_;
  int divisible_iters_ = 0;
  int remainder_iters_ = 0;
  bool initialized_ = false;
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  auto loader = ports::make_image_batches(40, 4, 3, 32, 5);
  IterBasedRunner runner(std::make_shared<SegHead>(), args.get_int("--max_iters", 10001));
  runner.register_hook(std::make_shared<GradientCumulativeOptimizerHook>(35.0, args.get_int("--cumulative_iters", 2)));
  if (args.has("--resume_from")) runner.resume(args.get_int("--resume_from", 3000));
  runner.run(loader);
  return 0;
}
