// Sequence-classification fine-tuning loop driven by a small Accelerator
// helper: the helper owns the accumulation state, divides the loss in
// backward() and wraps the optimizer and the learning-rate scheduler.
#include <torch/torch.h>

#include "ports_support.h"

#include <algorithm>
#include <memory>

struct GradientState {
  int num_steps = 1;
  int step = 0;
  bool sync_gradients = true;
};

// Linear warm-up followed by linear decay, sized in optimizer updates.
class LinearScheduleWithWarmup : public torch::optim::LRScheduler {
 public:
  LinearScheduleWithWarmup(torch::optim::Optimizer& opt, unsigned warmup, unsigned total,
                           double base_lr)
      : LRScheduler(opt), warmup_(warmup), total_(total), base_lr_(base_lr) {}

 protected:
  std::vector<double> get_lrs() override {
    double f;
    if (step_count_ < warmup_)
      f = static_cast<double>(step_count_) / std::max(1u, warmup_);
    else
      f = std::max(0.0, static_cast<double>(total_ - step_count_) /
                            std::max(1u, total_ - warmup_));
    return {base_lr_ * f};
  }

 private:
  unsigned warmup_, total_;
  double base_lr_;
};

class AcceleratedOptimizer {
 public:
  AcceleratedOptimizer(torch::optim::Optimizer& opt, GradientState& state)
      : opt_(opt), state_(state) {}
  void step() {
    if (state_.sync_gradients) opt_.step();
  }
  void zero_grad() {
    if (state_.sync_gradients) opt_.zero_grad();
  }

 private:
  torch::optim::Optimizer& opt_;
  GradientState& state_;
};

class AcceleratedScheduler {
 public:
  AcceleratedScheduler(torch::optim::LRScheduler& sched, GradientState& state)
      : sched_(sched), state_(state) {}
  void step() {
    if (!state_.sync_gradients) return;
    sched_.step();
  }

 private:
  torch::optim::LRScheduler& sched_;
  GradientState& state_;
};

class Accelerator {
 public:
  explicit Accelerator(int gradient_accumulation_steps) {
    state_.num_steps = gradient_accumulation_steps;
  }
  // Called at the top of every batch; decides whether this batch closes a window.
  void accumulate(int64_t batch_idx, int64_t num_batches) {
    state_.step = static_cast<int>(batch_idx) + 1;
    state_.sync_gradients =
        (state_.step % state_.num_steps == 0) || (batch_idx + 1 == num_batches);
  }
  void backward(const torch::Tensor& loss) {
    auto scaled = loss / state_.num_steps;
    scaled.backward();
  }
  GradientState& gradient_state() { return state_; }

 private:
  GradientState state_;
};

struct SeqClassifier : torch::nn::Module {
  SeqClassifier(int64_t vocab, int64_t hidden, int64_t labels) {
    embed = register_module("embed", torch::nn::Embedding(vocab, hidden));
    pre = register_module("pre", torch::nn::Linear(hidden, hidden));
    head = register_module("head", torch::nn::Linear(hidden, labels));
  }
  torch::Tensor forward(const torch::Tensor& ids) {
    auto h = embed->forward(ids).mean(1);
    return head->forward(torch::tanh(pre->forward(h)));
  }
  torch::nn::Embedding embed{nullptr};
  torch::nn::Linear pre{nullptr}, head{nullptr};
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  const int grad_accum = args.get_int("--gradient_accumulation_steps", 4);
  const int epochs = args.get_int("--num_epochs", 3);
  const double lr = args.get_double("--lr", 2e-5);
  ports::MetricsLogger logger("glue-mrpc");

  auto batches = ports::make_token_batches(40, 16, 64, 1000);
  std::vector<torch::Tensor> labels;
  for (size_t i = 0; i < batches.size(); ++i) labels.push_back(torch::randint(2, {16}, torch::kLong));

  auto model = std::make_shared<SeqClassifier>(1000, 128, 2);
  torch::optim::AdamW base_opt(model->parameters(), torch::optim::AdamWOptions(lr).weight_decay(0.01));
  const unsigned total_updates = epochs * batches.size() / grad_accum;
  LinearScheduleWithWarmup base_sched(base_opt, 100, total_updates, lr);

  Accelerator accelerator(grad_accum);
  AcceleratedOptimizer optimizer(base_opt, accelerator.gradient_state());
  AcceleratedScheduler lr_scheduler(base_sched, accelerator.gradient_state());

  for (int epoch = 0; epoch < epochs; ++epoch) {
    model->train();
    for (size_t step = 0; step < batches.size(); ++step) {
      accelerator.accumulate(step, batches.size());
      auto logits = model->forward(batches[step].input_ids);
      auto loss = torch::nn::functional::cross_entropy(logits, labels[step]);
      accelerator.backward(loss);
      optimizer.step();
      lr_scheduler.step();
      optimizer.zero_grad();
      if (step % 10 == 0) logger.log({{"loss", loss.item<double>()}}, step);
    }
    model->eval();
    torch::NoGradGuard ng;
    int64_t correct = 0;
    for (size_t i = 0; i < 4; ++i)
      correct += model->forward(batches[i].input_ids).argmax(1).eq(labels[i]).sum().item<int64_t>();
    logger.log({{"epoch", static_cast<double>(epoch)}, {"accuracy", correct / 64.0}}, epoch);
  }
  return 0;
}
