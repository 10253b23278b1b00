// ZeRO-1 style optimizer with a separate float32 gradient accumulation buffer:
// after every backward the engine moves each parameter's gradient into the
// buffer (the "grad accumulation dtype" path), and at the accumulation
// boundary the buffer is handed back as the gradient the optimizer steps on.
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>

struct GPTBlock : torch::nn::Module {
  GPTBlock() {
    qkv = register_module("qkv", torch::nn::Linear(64, 192));
    proj = register_module("proj", torch::nn::Linear(192, 64));
    head = register_module("head", torch::nn::Linear(64, 500));
  }
  torch::Tensor forward(const torch::Tensor& x) { return head->forward(x + proj->forward(torch::gelu(qkv->forward(x)))); }
  torch::nn::Linear qkv{nullptr}, proj{nullptr}, head{nullptr};
};

class ZenFlowZeroOptimizer {
 public:
  ZenFlowZeroOptimizer(std::shared_ptr<GPTBlock> model, double lr) : model_(std::move(model)) {
    params_ = model_->parameters();
    for (auto& p : params_) {
      overlap_grad_.push_back(torch::zeros_like(p, torch::kFloat));
      grad_accum_attr_.push_back(torch::Tensor());
    }
    inner_ = std::make_unique<torch::optim::AdamW>(params_, torch::optim::AdamWOptions(lr));
  }

  torch::Tensor get_param_gradient_attribute(size_t k) { return params_[k].grad(); }
  // Clears the same attribute get_param_gradient_attribute() read.
  void clear_grad_attribute(size_t k) { params_[k].mutable_grad().zero_(); }

  // Folds the current gradient of every parameter into the float32 buffer.
  void async_inplace_copy_grad_to_fp32_buffer_from_gpu() {
    for (size_t k = 0; k < params_.size(); ++k) {
      auto src = get_param_gradient_attribute(k);
      if (!src.defined()) continue;
      overlap_grad_[k].add_(src.to(torch::kFloat));
      clear_grad_attribute(k);
    }
  }

  void step(double max_norm) {
    for (size_t k = 0; k < params_.size(); ++k) params_[k].mutable_grad() = overlap_grad_[k].to(params_[k].dtype());
    torch::nn::utils::clip_grad_norm_(params_, max_norm);
    inner_->step();
    inner_->zero_grad();
    for (auto& b : overlap_grad_) b.zero_();
  }

 private:
  std::shared_ptr<GPTBlock> model_;
  std::vector<torch::Tensor> params_;
  std::vector<torch::Tensor> overlap_grad_;
  std::vector<torch::Tensor> grad_accum_attr_;
  std::unique_ptr<torch::optim::AdamW> inner_;
};

class Engine {
 public:
  Engine(std::shared_ptr<GPTBlock> model, int gas) : model(model), optimizer(model, 6e-4), gas_(gas) {}
  void backward(const torch::Tensor& loss) {
    (loss / gas_).backward();
    optimizer.async_inplace_copy_grad_to_fp32_buffer_from_gpu();
    ++micro_steps_;
  }
  void step() {
    if (micro_steps_ % gas_ != 0) return;
    optimizer.step(1.0);
    ++global_steps_;
  }
  std::shared_ptr<GPTBlock> model;
  ZenFlowZeroOptimizer optimizer;
  int64_t global_steps_ = 0;

 private:
  int gas_;
  int64_t micro_steps_ = 0;
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  Engine engine(std::make_shared<GPTBlock>(), args.get_int("--gradient_accumulation_steps", 4));
  ports::MetricsLogger logger("zenflow");
  auto data = ports::make_token_batches(160, 8, 32, 500);
  torch::nn::Embedding embed(500, 64);
  for (const auto& batch : data) {
    torch::Tensor x;
    {
      torch::NoGradGuard ng;
      x = embed->forward(batch.input_ids);
    }
    auto logits = engine.model->forward(x);
    auto loss = torch::nn::functional::cross_entropy(logits.view({-1, 500}), batch.input_ids.roll(-1, 1).view({-1}));
    engine.backward(loss);
    engine.step();
    if (engine.global_steps_ % 10 == 0) logger.log({{"loss", loss.item<double>()}}, engine.global_steps_);
  }
  return 0;
}
