// Image classification following a gradient-accumulation usage guide for an
// accelerate-like helper: an RAII accumulate() scope decides whether this
// batch synchronises, and the prepared optimizer/scheduler wrappers only act
// on synchronising batches; backward() scales the loss.
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>

struct GradientState {
  int num_steps = 1;
  bool sync_gradients = true;
  bool end_of_dataloader = false;
};

class Accelerator;

class AccumulateScope {
 public:
  AccumulateScope(GradientState& gs, int64_t step) : gs_(gs) {
    gs_.sync_gradients = (step + 1) % gs_.num_steps == 0 || gs_.end_of_dataloader;
  }
  ~AccumulateScope() = default;

 private:
  GradientState& gs_;
};

class PreparedOptimizer {
 public:
  PreparedOptimizer(std::shared_ptr<torch::optim::Optimizer> opt, GradientState& gs) : opt_(std::move(opt)), gs_(gs) {}
  void zero_grad() {
    if (gs_.sync_gradients) opt_->zero_grad();
  }
  void step() {
    if (gs_.sync_gradients) opt_->step();
  }
  torch::optim::Optimizer& base() { return *opt_; }

 private:
  std::shared_ptr<torch::optim::Optimizer> opt_;
  GradientState& gs_;
};

class PreparedScheduler {
 public:
  PreparedScheduler(std::shared_ptr<torch::optim::StepLR> s, GradientState& gs) : sched_(std::move(s)), gs_(gs) {}
  void step() {
    if (gs_.sync_gradients) sched_->step();
  }

 private:
  std::shared_ptr<torch::optim::StepLR> sched_;
  GradientState& gs_;
};

class Accelerator {
 public:
  explicit Accelerator(int gradient_accumulation_steps) { gs.num_steps = gradient_accumulation_steps; }
  AccumulateScope accumulate(int64_t step, int64_t num_batches) {
    gs.end_of_dataloader = step + 1 == num_batches;
    return AccumulateScope(gs, step);
  }
  void backward(const torch::Tensor& loss) { (loss / gs.num_steps).backward(); }
  GradientState gs;
};

struct ResNetTiny : torch::nn::Module {
  ResNetTiny() {
    c1 = register_module("c1", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1)));
    c2 = register_module("c2", torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 3).stride(2).padding(1)));
    fc = register_module("fc", torch::nn::Linear(32, 37));
  }
  torch::Tensor forward(const torch::Tensor& x) {
    return fc->forward(torch::relu(c2->forward(torch::relu(c1->forward(x)))).mean({2, 3}));
  }
  torch::nn::Conv2d c1{nullptr}, c2{nullptr};
  torch::nn::Linear fc{nullptr};
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  Accelerator accelerator(args.get_int("--gradient_accumulation_steps", 4));
  auto model = std::make_shared<ResNetTiny>();
  auto base_opt = std::make_shared<torch::optim::Adam>(model->parameters(), torch::optim::AdamOptions(3e-4));
  PreparedOptimizer optimizer(base_opt, accelerator.gs);
  PreparedScheduler scheduler(std::make_shared<torch::optim::StepLR>(*base_opt, 30, 0.5), accelerator.gs);
  auto training_dataloader = ports::make_image_batches(60, 16, 3, 64, 37);
  ports::MetricsLogger logger("pets");

  for (int epoch = 0; epoch < 5; ++epoch) {
    model->train();
    for (size_t step = 0; step < training_dataloader.size(); ++step) {
      auto scope = accelerator.accumulate(step, training_dataloader.size());
      optimizer.zero_grad();
      const auto& batch = training_dataloader[step];
      auto outputs = model->forward(batch.images);
      auto loss = torch::nn::functional::cross_entropy(outputs, batch.targets);
      accelerator.backward(loss);
      optimizer.step();
      scheduler.step();
    }
    logger.log({{"epoch", double(epoch)}}, epoch);
  }
  return 0;
}
