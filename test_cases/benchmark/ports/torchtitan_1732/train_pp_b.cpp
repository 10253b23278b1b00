// Pipeline-parallel style training step: a schedule object splits each local
// batch into n_microbatches, runs forward/backward on each, and can rescale
// the gradients afterwards. The trainer adds gradient accumulation on top by
// calling the schedule several times per optimizer step; the loss function is
// wrapped so that the accumulated loss is a mean.
#include <torch/torch.h>

#include "ports_support.h"

#include <functional>
#include <memory>

struct Transformer : torch::nn::Module {
  Transformer(int64_t vocab, int64_t dim) : vocab(vocab) {
    tok_embeddings = register_module("tok_embeddings", torch::nn::Embedding(vocab, dim));
    layer0 = register_module("layer0", torch::nn::Linear(dim, dim));
    layer1 = register_module("layer1", torch::nn::Linear(dim, dim));
    output = register_module("output", torch::nn::Linear(dim, vocab));
  }
  torch::Tensor forward(const torch::Tensor& tokens) {
    auto h = tok_embeddings->forward(tokens);
    h = h + torch::silu(layer0->forward(h));
    h = h + torch::silu(layer1->forward(h));
    return output->forward(h);
  }
  int64_t vocab;
  torch::nn::Embedding tok_embeddings{nullptr};
  torch::nn::Linear layer0{nullptr}, layer1{nullptr}, output{nullptr};
};

using LossFn = std::function<torch::Tensor(const torch::Tensor&, const torch::Tensor&)>;

class ScheduleGPipe {
 public:
  ScheduleGPipe(std::shared_ptr<Transformer> stage, int n_microbatches, LossFn loss_fn, bool scale_grads)
      : stage_(std::move(stage)), n_microbatches_(n_microbatches), loss_fn_(std::move(loss_fn)),
        scale_grads_(scale_grads) {}

  torch::Tensor step(const torch::Tensor& inputs, const torch::Tensor& target) {
    auto in_chunks = inputs.tensor_split(n_microbatches_);
    auto tgt_chunks = target.tensor_split(n_microbatches_);
    torch::Tensor losses = torch::zeros({});
    for (int i = 0; i < n_microbatches_; ++i) {
      auto pred = stage_->forward(in_chunks[i]);
      auto loss = loss_fn_(pred, tgt_chunks[i]);
      loss.backward();
      losses += loss.detach();
    }
    if (scale_grads_) {
      for (auto& p : stage_->parameters())
        if (p.grad().defined()) p.grad().div_(n_microbatches_);
    }
    return losses;
  }

 private:
  std::shared_ptr<Transformer> stage_;
  int n_microbatches_;
  LossFn loss_fn_;
  bool scale_grads_;
};

struct JobConfig {
  int local_batch_size = 16;
  int microbatch_size = 4;
  int gradient_accumulation_steps = 2;
  int steps = 50;
  double lr = 8e-4;
  double max_norm = 1.0;
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  JobConfig job;
  job.gradient_accumulation_steps = args.get_int("--training.gradient_accumulation_steps", 2);
  const int n_microbatches = job.local_batch_size / job.microbatch_size;
  auto model = std::make_shared<Transformer>(2048, 128);
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(job.lr).betas({0.9, 0.95}).weight_decay(0.1));

  // Wraps the cross-entropy so the micro-steps of one optimizer step average.
  const double accumulation_factor = job.gradient_accumulation_steps;
  LossFn rescale_accumulated_loss = [accumulation_factor](const torch::Tensor& pred, const torch::Tensor& labels) {
    auto loss = torch::nn::functional::cross_entropy(pred.flatten(0, 1), labels.flatten(0, 1));
    return loss / accumulation_factor;
  };
  ScheduleGPipe pp_schedule(model, n_microbatches, rescale_accumulated_loss, /*scale_grads=*/true);

  ports::MetricsLogger metrics("torchtitan");
  auto data = ports::make_token_batches(job.steps * job.gradient_accumulation_steps, job.local_batch_size, 64, 2048, 3);
  size_t cursor = 0;
  for (int step = 1; step <= job.steps; ++step) {
    optimizer.zero_grad();
    double accumulated_loss = 0.0;
    for (int micro = 0; micro < job.gradient_accumulation_steps; ++micro) {
      const auto& batch = data[cursor++];
      accumulated_loss += pp_schedule.step(batch.input_ids, batch.input_ids.roll(-1, 1)).item<double>();
    }
    auto grad_norm = torch::nn::utils::clip_grad_norm_(model->parameters(), job.max_norm);
    optimizer.step();
    if (step % 10 == 0) metrics.log({{"loss", accumulated_loss}, {"grad_norm", grad_norm}}, step);
  }
  return 0;
}
