// Unconditional DDPM training on two ranks over Gloo. A small Accelerator
// helper plays the part of accelerate: it tracks the accumulation window and
// all-reduces the gradients in the backward() that closes it, the way DDP
// only synchronises outside no_sync().
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>
#include <string>

constexpr int kWorldSize = 2;

class Accelerator {
 public:
  Accelerator(c10::intrusive_ptr<c10d::ProcessGroupGloo> pg, int gradient_accumulation_steps)
      : pg_(std::move(pg)), gradient_accumulation_steps_(gradient_accumulation_steps) {}

  void accumulate(int64_t step) {
    sync_gradients = (step + 1) % gradient_accumulation_steps_ == 0;
  }

  void backward(const torch::Tensor& loss, torch::nn::Module& model) {
    (loss / gradient_accumulation_steps_).backward();
    if (sync_gradients) reduce_gradients(model);
  }

  void clip_grad_norm_(const std::vector<torch::Tensor>& params, double max_norm) {
    torch::nn::utils::clip_grad_norm_(params, max_norm);
  }

  bool is_main_process() const { return pg_->getRank() == 0; }

  bool sync_gradients = true;

 private:
  void reduce_gradients(torch::nn::Module& model) {
    for (auto& p : model.parameters()) {
      if (!p.grad().defined()) continue;
      std::vector<torch::Tensor> bucket{p.grad()};
      pg_->allreduce(bucket)->wait();
      p.grad().div_(pg_->getSize());
    }
  }

  c10::intrusive_ptr<c10d::ProcessGroupGloo> pg_;
  int gradient_accumulation_steps_;
};

struct UNet2D : torch::nn::Module {
  UNet2D() {
    down = register_module("down", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).padding(1)));
    mid = register_module("mid", torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 32, 3).padding(1)));
    up = register_module("up", torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 3, 3).padding(1)));
    time_embed = register_module("time_embed", torch::nn::Embedding(1000, 32));
  }
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& t) {
    auto h = torch::silu(down->forward(x)) + time_embed->forward(t).view({-1, 32, 1, 1});
    return up->forward(torch::silu(mid->forward(h)));
  }
  torch::nn::Conv2d down{nullptr}, mid{nullptr}, up{nullptr};
  torch::nn::Embedding time_embed{nullptr};
};

struct DDPMScheduler {
  torch::Tensor alphas_cumprod = torch::cumprod(1 - torch::linspace(1e-4, 0.02, 1000), 0);
  torch::Tensor add_noise(const torch::Tensor& x0, const torch::Tensor& noise, const torch::Tensor& t) {
    auto a = alphas_cumprod.index_select(0, t).view({-1, 1, 1, 1});
    return a.sqrt() * x0 + (1 - a).sqrt() * noise;
  }
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  const int rank = args.get_int("--rank", 0);
  const int grad_accum = args.get_int("--gradient_accumulation_steps", 4);
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/ddpm_store", kWorldSize);
  auto opts = c10d::ProcessGroupGloo::Options::create();
  opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, kWorldSize, opts);

  Accelerator accelerator(pg, grad_accum);
  torch::manual_seed(0);
  auto model = std::make_shared<UNet2D>();
  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(1e-4).weight_decay(1e-6));
  torch::optim::StepLR lr_scheduler(optimizer, 500, 0.9);
  DDPMScheduler noise_scheduler;
  ports::MetricsLogger logger("ddpm");

  auto train_dataloader = ports::make_image_batches(32, 8, 3, 32, 1, 100 + rank);
  int64_t global_step = 0;
  for (int epoch = 0; epoch < 4; ++epoch) {
    model->train();
    for (size_t step = 0; step < train_dataloader.size(); ++step) {
      auto clean_images = train_dataloader[step].images;
      auto noise = torch::randn_like(clean_images);
      auto timesteps = torch::randint(1000, {clean_images.size(0)}, torch::kLong);
      auto noisy_images = noise_scheduler.add_noise(clean_images, noise, timesteps);

      accelerator.accumulate(step);
      auto noise_pred = model->forward(noisy_images, timesteps);
      auto loss = torch::mse_loss(noise_pred, noise);
      accelerator.backward(loss, *model);
      accelerator.clip_grad_norm_(model->parameters(), 1.0);
      if (accelerator.sync_gradients) {
        optimizer.step();
        lr_scheduler.step();
        optimizer.zero_grad();
        ++global_step;
      }
      if (accelerator.is_main_process() && step % 8 == 0)
        logger.log({{"loss", loss.item<double>()}, {"step", double(global_step)}}, global_step);
    }
  }
  return 0;
}
