// Training through a DeepSpeed-like engine: the engine owns the optimizer and
// the accumulation boundary (step() only updates every
// gradient_accumulation_steps calls) and takes care of scaling gradients for
// accumulation. The user loss mixes the engine output with a second pass
// through the wrapped module on an augmented view (a consistency term).
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>

struct Encoder : torch::nn::Module {
  Encoder() {
    fc1 = register_module("fc1", torch::nn::Linear(32, 64));
    fc2 = register_module("fc2", torch::nn::Linear(64, 10));
  }
  torch::Tensor forward(const torch::Tensor& x) { return fc2->forward(torch::relu(fc1->forward(x))); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

class DeepSpeedEngine {
 public:
  DeepSpeedEngine(std::shared_ptr<Encoder> module, int gradient_accumulation_steps, double lr)
      : module(std::move(module)), gas_(gradient_accumulation_steps),
        optimizer_(this->module->parameters(), torch::optim::AdamWOptions(lr)) {}

  torch::Tensor forward(const torch::Tensor& x) { return module->forward(x); }

  // Scales the whole loss for accumulation, whichever passes produced it.
  void backward(const torch::Tensor& loss) {
    (loss / gas_).backward();
    ++micro_steps_;
  }

  bool is_gradient_accumulation_boundary() const { return micro_steps_ % gas_ == 0; }

  void step() {
    if (!is_gradient_accumulation_boundary()) return;
    torch::nn::utils::clip_grad_norm_(module->parameters(), 1.0);
    optimizer_.step();
    optimizer_.zero_grad();
    ++global_steps_;
  }

  int64_t global_steps() const { return global_steps_; }
  std::shared_ptr<Encoder> module;

 private:
  int gas_;
  torch::optim::AdamW optimizer_;
  int64_t micro_steps_ = 0;
  int64_t global_steps_ = 0;
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  const int gas = args.get_int("--gradient_accumulation_steps", 4);
  const double consistency_weight = args.get_double("--consistency_weight", 0.5);
  DeepSpeedEngine engine(std::make_shared<Encoder>(), gas, 1e-3);
  ports::MetricsLogger logger("ds");
  torch::manual_seed(0);
  auto data = ports::make_regression_batches(200, 16, 32, 10);
  for (size_t i = 0; i < data.size(); ++i) {
    const auto& batch = data[i];
    auto logits = engine.forward(batch.x);
    auto augmented = batch.x + 0.05 * torch::randn_like(batch.x);
    auto aug_logits = engine.module->forward(augmented);
    auto task_loss = torch::nn::functional::cross_entropy(logits, batch.y.argmax(1));
    auto consistency = torch::mse_loss(aug_logits.log_softmax(1), logits.detach().log_softmax(1));
    auto loss = task_loss + consistency_weight * consistency;
    engine.backward(loss);
    engine.step();
    if (engine.is_gradient_accumulation_boundary() && engine.global_steps() % 10 == 0)
      logger.log({{"loss", loss.item<double>()}}, engine.global_steps());
  }
  return 0;
}
