// Diffusion-model TrainLoop in the style of a guided-diffusion train_util:
// run_step() splits each batch into microbatches, forward_backward()
// accumulates their gradients, and the data-parallel gradient average is only
// done on the last microbatch (the others run under a no-sync guard).
// An EMA of the parameters is updated after every optimizer step.
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>

struct UNetModel : torch::nn::Module {
  UNetModel() {
    inp = register_module("inp", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).padding(1)));
    emb = register_module("emb", torch::nn::Linear(1, 32));
    out = register_module("out", torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 3, 3).padding(1)));
  }
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& t) {
    auto h = torch::silu(inp->forward(x)) + emb->forward(t.unsqueeze(1).to(torch::kFloat) / 1000).view({-1, 32, 1, 1});
    return out->forward(h);
  }
  torch::nn::Conv2d inp{nullptr}, out{nullptr};
  torch::nn::Linear emb{nullptr};
};

class DDPWrapper {
 public:
  DDPWrapper(std::shared_ptr<UNetModel> m, c10::intrusive_ptr<c10d::ProcessGroup> pg) : module(std::move(m)), pg_(std::move(pg)) {}
  void backward(const torch::Tensor& loss, bool sync) {
    loss.backward();
    if (!sync) return;
    for (auto& p : module->parameters()) {
      std::vector<torch::Tensor> bucket{p.grad()};
      pg_->allreduce(bucket)->wait();
      p.grad().div_(pg_->getSize());
    }
  }
  std::shared_ptr<UNetModel> module;

 private:
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
};

class TrainLoop {
 public:
  TrainLoop(DDPWrapper& ddp_model, int64_t batch_size, int64_t microbatch, double lr, double ema_rate)
      : ddp_model_(ddp_model), batch_size_(batch_size), microbatch_(microbatch > 0 ? microbatch : batch_size),
        opt_(ddp_model.module->parameters(), torch::optim::AdamWOptions(lr).weight_decay(0.0)), ema_rate_(ema_rate) {
    for (auto& p : ddp_model.module->parameters()) ema_params_.push_back(p.detach().clone());
    alphas_cumprod_ = torch::cumprod(1 - torch::linspace(1e-4, 0.02, 1000), 0);
  }

  void run_step(const torch::Tensor& batch) {
    forward_backward(batch);
    opt_.step();
    _update_ema();
    ++step_;
  }

  int64_t step() const { return step_; }

 private:
  torch::Tensor training_losses(const torch::Tensor& x_start, const torch::Tensor& t) {
    auto noise = torch::randn_like(x_start);
    auto a = alphas_cumprod_.index_select(0, t).view({-1, 1, 1, 1});
    auto x_t = a.sqrt() * x_start + (1 - a).sqrt() * noise;
    return (ddp_model_.module->forward(x_t, t) - noise).pow(2).mean({1, 2, 3});
  }

  void forward_backward(const torch::Tensor& batch) {
    opt_.zero_grad();
    const int64_t num_microbatches = (batch.size(0) + microbatch_ - 1) / microbatch_;
    for (int64_t i = 0; i < batch.size(0); i += microbatch_) {
      auto micro = batch.slice(0, i, i + microbatch_);
      const bool last_batch = (i + microbatch_) >= batch.size(0);
      auto t = torch::randint(1000, {micro.size(0)}, torch::kLong);
      auto weights = torch::ones({micro.size(0)});
      auto losses = training_losses(micro, t);
      auto loss = (losses * weights).mean() / num_microbatches;
      ddp_model_.backward(loss, /*sync=*/last_batch);
      if (last_batch && step_ % 100 == 0) log_.log({{"loss", loss.item<double>()}}, step_);
    }
  }

  void _update_ema() {
    torch::NoGradGuard ng;
    auto params = ddp_model_.module->parameters();
    for (size_t k = 0; k < params.size(); ++k) ema_params_[k].mul_(ema_rate_).add_(params[k].detach(), 1 - ema_rate_);
  }

  DDPWrapper& ddp_model_;
  int64_t batch_size_, microbatch_;
  torch::optim::AdamW opt_;
  double ema_rate_;
  std::vector<torch::Tensor> ema_params_;
  torch::Tensor alphas_cumprod_;
  int64_t step_ = 0;
  ports::MetricsLogger log_{"improved-diffusion"};
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  const int rank = args.get_int("--rank", 0);
  const int world_size = 2;
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/gd_store", world_size);
  auto opts = c10d::ProcessGroupGloo::Options::create();
  opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  c10::intrusive_ptr<c10d::ProcessGroup> pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size, opts);

  torch::manual_seed(0);
  DDPWrapper ddp(std::make_shared<UNetModel>(), pg);
  TrainLoop loop(ddp, args.get_int("--batch_size", 16), args.get_int("--microbatch", 4), 1e-4, 0.9999);
  torch::manual_seed(100 + rank);
  for (int i = 0; i < 500; ++i) loop.run_step(torch::randn({16, 3, 32, 32}));
  return 0;
}
