// CIFAR-10 training with a privacy-engine style optimizer wrapper that
// supports "virtual steps": batches between two real steps are folded into a
// summed gradient kept by the wrapper, and the real step adds Gaussian noise
// to the sum and averages it over the batches taken. (The per-sample clipping
// of a real DP engine is left out of this stand-in.)
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>

struct SampleConvNet : torch::nn::Module {
  SampleConvNet() {
    conv1 = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 8).stride(2).padding(3)));
    conv2 = register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 4).stride(2)));
    fc1 = register_module("fc1", torch::nn::Linear(32 * 3 * 3, 32));
    fc2 = register_module("fc2", torch::nn::Linear(32, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::tanh(conv1->forward(x)), 2, 1);
    x = torch::max_pool2d(torch::tanh(conv2->forward(x)), 2, 1);
    x = torch::adaptive_avg_pool2d(x, {3, 3}).flatten(1);
    return fc2->forward(torch::tanh(fc1->forward(x)));
  }
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

class PrivateOptimizer {
 public:
  PrivateOptimizer(std::shared_ptr<SampleConvNet> model, double lr, double noise_multiplier, double max_grad_norm)
      : model_(std::move(model)), sgd_(model_->parameters(), torch::optim::SGDOptions(lr).momentum(0.9)),
        noise_multiplier_(noise_multiplier), max_grad_norm_(max_grad_norm) {
    for (auto& p : model_->parameters()) summed_grad_.push_back(torch::zeros_like(p));
  }

  // Folds the current .grad into the summed gradient and clears .grad.
  void virtual_step() {
    auto params = model_->parameters();
    for (size_t k = 0; k < params.size(); ++k) {
      summed_grad_[k].add_(params[k].grad());
      params[k].mutable_grad().zero_();
    }
    ++batches_in_sum_;
  }

  void step() {
    virtual_step();
    auto params = model_->parameters();
    for (size_t k = 0; k < params.size(); ++k) {
      auto noise = torch::randn_like(summed_grad_[k]) * noise_multiplier_ * max_grad_norm_;
      params[k].mutable_grad() = (summed_grad_[k] + noise) / batches_in_sum_;
    }
    sgd_.step();
  }

  void zero_grad() {
    sgd_.zero_grad();
    for (auto& s : summed_grad_) s.zero_();
    batches_in_sum_ = 0;
  }

 private:
  std::shared_ptr<SampleConvNet> model_;
  torch::optim::SGD sgd_;
  std::vector<torch::Tensor> summed_grad_;
  int64_t batches_in_sum_ = 0;
  double noise_multiplier_, max_grad_norm_;
};

void train(std::shared_ptr<SampleConvNet> model, PrivateOptimizer& optimizer,
           const std::vector<ports::ImageBatch>& train_loader, int n_accumulation_steps, int epoch,
           ports::MetricsLogger& logger) {
  model->train();
  double running = 0.0;
  for (size_t i = 0; i < train_loader.size(); ++i) {
    optimizer.zero_grad();
    auto output = model->forward(train_loader[i].images);
    auto loss = torch::nn::functional::cross_entropy(output, train_loader[i].targets);
    loss.backward();
    running += loss.item<double>();
    if ((i + 1) % n_accumulation_steps == 0 || i + 1 == train_loader.size()) {
      optimizer.step();
    } else {
      optimizer.virtual_step();
    }
  }
  logger.log({{"epoch", double(epoch)}, {"loss", running / train_loader.size()}}, epoch);
}

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  const int n_accumulation_steps = args.get_int("--n-accumulation-steps", 4);
  auto loader = ports::make_image_batches(50, 64, 3, 32, 10);
  auto model = std::make_shared<SampleConvNet>();
  PrivateOptimizer optimizer(model, args.get_double("--lr", 0.1), args.get_double("--sigma", 1.5),
                             args.get_double("-c", 10.0));
  ports::MetricsLogger logger("cifar10-dp");
  for (int epoch = 1; epoch <= args.get_int("--epochs", 3); ++epoch)
    train(model, optimizer, loader, n_accumulation_steps, epoch, logger);
  return 0;
}
