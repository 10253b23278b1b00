// Policy trainer for an RL loop exposing the two-call interface common to RL
// libraries: forward_backward() on one micro-batch of scored rollouts, then
// optim_step() once the controller has sent all micro-batches of a step.
#include <torch/torch.h>

#include "ports_support.h"

#include <map>
#include <memory>
#include <string>

struct Rollouts {
  torch::Tensor tokens;      // [B, T]
  torch::Tensor advantages;  // [B]
  torch::Tensor mask;        // [B, T] float, 1 on generated tokens
};

struct Policy : torch::nn::Module {
  Policy(int64_t vocab, int64_t dim) {
    emb = register_module("emb", torch::nn::Embedding(vocab, dim));
    mlp = register_module("mlp", torch::nn::Linear(dim, dim));
    out = register_module("out", torch::nn::Linear(dim, vocab));
  }
  torch::Tensor forward(const torch::Tensor& tokens) {
    return out->forward(torch::relu(mlp->forward(emb->forward(tokens))));
  }
  torch::nn::Embedding emb{nullptr};
  torch::nn::Linear mlp{nullptr}, out{nullptr};
};

class PolicyTrainer {
 public:
  PolicyTrainer(int64_t vocab, int64_t dim, double lr)
      : model_(std::make_shared<Policy>(vocab, dim)),
        optimizer_(model_->parameters(), torch::optim::AdamWOptions(lr).weight_decay(0.0)) {}

  // Runs forward and backward on one micro-batch; `num_microbatches` is the
  // number of micro-batches the controller will send before optim_step().
  std::map<std::string, double> forward_backward(const Rollouts& mb, int num_microbatches) {
    model_->train();
    using namespace torch::indexing;
    auto logits = model_->forward(mb.tokens).index({Slice(), Slice(None, -1)});
    auto targets = mb.tokens.index({Slice(), Slice(1, None)});
    auto logp = logits.log_softmax(-1).gather(-1, targets.unsqueeze(-1)).squeeze(-1);
    auto mask = mb.mask.index({Slice(), Slice(1, None)});
    auto per_seq = (logp * mask).sum(-1) / mask.sum(-1).clamp_min(1.0);
    auto loss = -(per_seq * mb.advantages).mean();
    (loss / num_microbatches).backward();
    return {{"loss", loss.item<double>()}};
  }

  std::map<std::string, double> optim_step() {
    auto grad_norm = torch::nn::utils::clip_grad_norm_(model_->parameters(), 1.0);
    optimizer_.step();
    optimizer_.zero_grad();
    ++step_;
    return {{"grad_norm", grad_norm}, {"step", double(step_)}};
  }

 private:
  std::shared_ptr<Policy> model_;
  torch::optim::AdamW optimizer_;
  int64_t step_ = 0;
};

static Rollouts fake_rollouts(int64_t b, int64_t t, int64_t vocab) {
  auto mask = torch::zeros({b, t});
  mask.index_put_({torch::indexing::Slice(), torch::indexing::Slice(t / 2, torch::indexing::None)}, 1.0);
  return {torch::randint(vocab, {b, t}, torch::kLong), torch::randn({b}), mask};
}

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  const int num_microbatches = args.get_int("--local_batch_microbatches", 4);
  const int steps = args.get_int("--steps", 20);
  PolicyTrainer trainer(1024, 128, 1e-6);
  ports::MetricsLogger logger("rl");
  torch::manual_seed(1);
  for (int step = 0; step < steps; ++step) {
    double loss_sum = 0.0;
    for (int m = 0; m < num_microbatches; ++m) {
      auto mb = fake_rollouts(8, 64, 1024);
      loss_sum += trainer.forward_backward(mb, num_microbatches).at("loss");
    }
    auto stats = trainer.optim_step();
    logger.log({{"loss", loss_sum / num_microbatches}, {"grad_norm", stats.at("grad_norm")}}, step);
  }
  return 0;
}
