// Direct preference optimisation with a DPOTrainer derived from a generic
// Trainer. The base training_step() leaves loss normalisation to the model
// when the model accepts loss kwargs (it then divides by the token count of
// the accumulated batch itself) and divides by the accumulation steps otherwise.
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>

struct PolicyLM : torch::nn::Module {
  PolicyLM(int64_t vocab, int64_t dim) {
    wte = register_module("wte", torch::nn::Embedding(vocab, dim));
    proj = register_module("proj", torch::nn::Linear(dim, dim));
    lm_head = register_module("lm_head", torch::nn::Linear(dim, vocab));
  }
  torch::Tensor forward(const torch::Tensor& ids) {
    return lm_head->forward(torch::gelu(proj->forward(wte->forward(ids))));
  }
  // The forward of the causal-LM classes takes **kwargs, num_items_in_batch among them.
  bool accepts_loss_kwargs() const { return true; }
  torch::nn::Embedding wte{nullptr};
  torch::nn::Linear proj{nullptr}, lm_head{nullptr};
};

struct PreferenceBatch {
  torch::Tensor chosen, rejected;  // [B, T] token ids (completion part only)
};

struct DPOConfig {
  int gradient_accumulation_steps = 8;
  double learning_rate = 5e-7;
  double beta = 0.1;
  int num_train_epochs = 1;
};

class Trainer {
 public:
  Trainer(std::shared_ptr<PolicyLM> model, DPOConfig args)
      : model_(std::move(model)), args_(args),
        optimizer_(model_->parameters(), torch::optim::AdamWOptions(args.learning_rate)) {
    model_accepts_loss_kwargs_ = model_->accepts_loss_kwargs();
  }
  virtual ~Trainer() = default;

  void train(const std::vector<PreferenceBatch>& dataset) {
    int64_t micro = 0;
    for (int epoch = 0; epoch < args_.num_train_epochs; ++epoch) {
      for (const auto& inputs : dataset) {
        auto loss = training_step(inputs, inputs.chosen.numel() * args_.gradient_accumulation_steps);
        if (++micro % args_.gradient_accumulation_steps == 0) {
          torch::nn::utils::clip_grad_norm_(model_->parameters(), 1.0);
          optimizer_.step();
          optimizer_.zero_grad();
          log_.log({{"loss", loss.item<double>()}}, micro / args_.gradient_accumulation_steps);
        }
      }
    }
  }

 protected:
  virtual torch::Tensor compute_loss(const PreferenceBatch& inputs, int64_t num_items_in_batch) = 0;

  torch::Tensor training_step(const PreferenceBatch& inputs, int64_t num_items_in_batch) {
    model_->train();
    auto loss = compute_loss(inputs, num_items_in_batch);
    if (!model_accepts_loss_kwargs_) loss = loss / args_.gradient_accumulation_steps;
    loss.backward();
    return loss.detach();
  }

  std::shared_ptr<PolicyLM> model_;
  DPOConfig args_;
  torch::optim::AdamW optimizer_;
  bool model_accepts_loss_kwargs_ = false;
  ports::MetricsLogger log_{"dpo"};
};

class DPOTrainer : public Trainer {
 public:
  DPOTrainer(std::shared_ptr<PolicyLM> model, std::shared_ptr<PolicyLM> ref_model, DPOConfig args)
      : Trainer(std::move(model), args), ref_model_(std::move(ref_model)) {
    for (auto& p : ref_model_->parameters()) p.set_requires_grad(false);
  }

 protected:
  static torch::Tensor sequence_logps(PolicyLM& lm, const torch::Tensor& ids) {
    using namespace torch::indexing;
    auto logits = lm.forward(ids).index({Slice(), Slice(None, -1)});
    auto targets = ids.index({Slice(), Slice(1, None)}).unsqueeze(-1);
    return logits.log_softmax(-1).gather(-1, targets).squeeze(-1).sum(-1);
  }

  // Sigmoid DPO loss, averaged over the preference pairs of this micro-batch.
  torch::Tensor compute_loss(const PreferenceBatch& inputs, int64_t) override {
    auto pi_chosen = sequence_logps(*model_, inputs.chosen);
    auto pi_rejected = sequence_logps(*model_, inputs.rejected);
    torch::Tensor ref_chosen, ref_rejected;
    {
      torch::NoGradGuard no_grad;
      ref_chosen = sequence_logps(*ref_model_, inputs.chosen);
      ref_rejected = sequence_logps(*ref_model_, inputs.rejected);
    }
    auto logits = args_.beta * ((pi_chosen - ref_chosen) - (pi_rejected - ref_rejected));
    return -torch::nn::functional::logsigmoid(logits).mean();
  }

 private:
  std::shared_ptr<PolicyLM> ref_model_;
};

int main(int argc, char** argv) {
  ports::ArgReader reader(argc, argv);
  DPOConfig cfg;
  cfg.gradient_accumulation_steps = reader.get_int("--gradient_accumulation_steps", 8);
  torch::manual_seed(0);
  std::vector<PreferenceBatch> data;
  for (int i = 0; i < 64; ++i)
    data.push_back({torch::randint(2000, {2, 48}, torch::kLong), torch::randint(2000, {2, 48}, torch::kLong)});
  auto policy = std::make_shared<PolicyLM>(2000, 96);
  auto reference = std::make_shared<PolicyLM>(2000, 96);
  DPOTrainer trainer(policy, reference, cfg);
  trainer.train(data);
  return 0;
}
