// A two-stage pipeline engine run in one process. train_batch() pushes
// gradient_accumulation_steps micro-batches through the stages, each stage's
// forward goes through the engine (which registers a hook that scales the
// output gradient for accumulation), the activations' gradients are passed
// back from stage to stage, and the optimizer steps once at the end.
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>

struct StageModule : torch::nn::Module {
  StageModule(int64_t in, int64_t out, bool last) : last(last) {
    fc = register_module("fc", torch::nn::Linear(in, out));
  }
  torch::Tensor forward(const torch::Tensor& x) { return last ? fc->forward(x) : torch::gelu(fc->forward(x)); }
  bool last;
  torch::nn::Linear fc{nullptr};
};

struct EngineConfig {
  int gradient_accumulation_steps = 8;
  int num_stages = 2;
  double lr = 1e-3;
};

class PipelineEngine {
 public:
  explicit PipelineEngine(EngineConfig cfg) : cfg_(cfg) {
    stages_.push_back(std::make_shared<StageModule>(64, 128, false));
    stages_.push_back(std::make_shared<StageModule>(128, 10, true));
    std::vector<torch::Tensor> params;
    for (auto& s : stages_)
      for (auto& p : s->parameters()) params.push_back(p);
    optimizer_ = std::make_unique<torch::optim::AdamW>(params, torch::optim::AdamWOptions(cfg.lr));
  }

  bool is_last_stage(int stage_id) const { return stage_id == cfg_.num_stages - 1; }

  // Engine-level forward of one stage: the last stage scales the gradient
  // arriving at its output by 1/gradient_accumulation_steps; earlier stages
  // receive gradients that already carry that factor.
  torch::Tensor stage_forward(int stage_id, const torch::Tensor& inputs) {
    auto outputs = stages_[stage_id]->forward(inputs);
    const double gas = cfg_.gradient_accumulation_steps;
    if (is_last_stage(stage_id))
      outputs.register_hook([gas](torch::Tensor grad) { return grad / gas; });
    return outputs;
  }

  double train_batch(const std::vector<ports::Example>& micro_batches) {
    double total_loss = 0.0;
    for (const auto& mb : micro_batches) {
      // Forward: stage 0 then stage 1, with the activation handed over detached.
      auto out0 = stage_forward(0, mb.x);
      auto recv = out0.detach().requires_grad_(true);
      auto logits = stage_forward(1, recv);
      auto loss = torch::nn::functional::cross_entropy(logits, mb.y.argmax(1));
      // Backward: last stage from the loss, then the first stage from the
      // gradient the last stage sent back.
      loss.backward();
      out0.backward(recv.grad());
      total_loss += loss.item<double>();
    }
    torch::nn::utils::clip_grad_norm_(optimizer_->param_groups()[0].params(), 1.0);
    optimizer_->step();
    optimizer_->zero_grad();
    ++global_steps_;
    return total_loss / micro_batches.size();
  }

  int64_t global_steps() const { return global_steps_; }

 private:
  EngineConfig cfg_;
  std::vector<std::shared_ptr<StageModule>> stages_;
  std::unique_ptr<torch::optim::AdamW> optimizer_;
  int64_t global_steps_ = 0;
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  EngineConfig cfg;
  cfg.gradient_accumulation_steps = args.get_int("--gradient_accumulation_steps", 8);
  PipelineEngine engine(cfg);
  ports::MetricsLogger logger("pipe");
  auto data = ports::make_regression_batches(cfg.gradient_accumulation_steps * 50, 4, 64, 10);
  for (size_t start = 0; start + cfg.gradient_accumulation_steps <= data.size(); start += cfg.gradient_accumulation_steps) {
    std::vector<ports::Example> window(data.begin() + start, data.begin() + start + cfg.gradient_accumulation_steps);
    const double loss = engine.train_batch(window);
    if (engine.global_steps() % 10 == 0) logger.log({{"loss", loss}}, engine.global_steps());
  }
  return 0;
}
