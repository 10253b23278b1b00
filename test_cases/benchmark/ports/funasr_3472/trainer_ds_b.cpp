// Speech-recognition trainer with a DDP-like wrapper: the wrapper averages the
// gradients across ranks inside backward() unless a no_sync guard is active,
// so accumulation steps can skip the all-reduce. Runs on two Gloo ranks.
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include "ports_support.h"

#include <memory>

struct ParaformerLite : torch::nn::Module {
  ParaformerLite(int64_t feat_dim, int64_t vocab) {
    encoder = register_module("encoder", torch::nn::Linear(feat_dim, 144));
    predictor = register_module("predictor", torch::nn::Linear(144, 144));
    decoder = register_module("decoder", torch::nn::Linear(144, vocab));
  }
  torch::Tensor forward(const torch::Tensor& speech, const torch::Tensor& text) {
    auto enc = torch::relu(encoder->forward(speech));
    auto logits = decoder->forward(torch::relu(predictor->forward(enc))).mean(1);
    return torch::nn::functional::cross_entropy(logits, text);
  }
  torch::nn::Linear encoder{nullptr}, predictor{nullptr}, decoder{nullptr};
};

class DistributedDataParallel {
 public:
  DistributedDataParallel(std::shared_ptr<ParaformerLite> module, c10::intrusive_ptr<c10d::ProcessGroup> pg)
      : module(std::move(module)), pg_(std::move(pg)) {}

  class NoSyncGuard {
   public:
    explicit NoSyncGuard(DistributedDataParallel& ddp) : ddp_(ddp), prev_(ddp.require_backward_grad_sync) {
      ddp_.require_backward_grad_sync = false;
    }
    ~NoSyncGuard() { ddp_.require_backward_grad_sync = prev_; }

   private:
    DistributedDataParallel& ddp_;
    bool prev_;
  };

  void backward(const torch::Tensor& loss) {
    loss.backward();
    if (!require_backward_grad_sync) return;
    for (auto& p : module->parameters()) {
      if (!p.grad().defined()) continue;
      std::vector<torch::Tensor> bucket{p.grad()};
      pg_->allreduce(bucket)->wait();
      p.grad().div_(pg_->getSize());
    }
  }

  std::shared_ptr<ParaformerLite> module;
  bool require_backward_grad_sync = true;

 private:
  c10::intrusive_ptr<c10d::ProcessGroup> pg_;
};

struct AsrBatch {
  torch::Tensor speech, text;
};

class Trainer {
 public:
  Trainer(DistributedDataParallel& model, int accum_grad, int rank)
      : model_(model), accum_grad_(accum_grad), rank_(rank),
        optim_(model.module->parameters(), torch::optim::AdamOptions(5e-4)),
        scheduler_(optim_, 2000, 0.8) {}

  void train_epoch(const std::vector<AsrBatch>& dataloader_train, int epoch) {
    model_.module->train();
    optim_.zero_grad();
    for (size_t batch_idx = 0; batch_idx < dataloader_train.size(); ++batch_idx) {
      const auto& batch = dataloader_train[batch_idx];
      std::unique_ptr<DistributedDataParallel::NoSyncGuard> my_context;
      if ((batch_idx + 1) % accum_grad_ != 0) my_context = std::make_unique<DistributedDataParallel::NoSyncGuard>(model_);
      auto loss = model_.module->forward(batch.speech, batch.text);
      model_.backward(loss / accum_grad_);
      my_context.reset();

      if ((batch_idx + 1) % accum_grad_ == 0) {
        torch::nn::utils::clip_grad_norm_(model_.module->parameters(), 5.0);
        optim_.step();
        scheduler_.step();
        optim_.zero_grad();
        ++step_in_epoch_;
        if (rank_ == 0 && step_in_epoch_ % 20 == 0) log_.log({{"loss", loss.item<double>()}, {"epoch", double(epoch)}}, step_in_epoch_);
      }
    }
    step_in_epoch_ = 0;
  }

 private:
  DistributedDataParallel& model_;
  int accum_grad_;
  int rank_;
  torch::optim::Adam optim_;
  torch::optim::StepLR scheduler_;
  int64_t step_in_epoch_ = 0;
  ports::MetricsLogger log_{"funasr"};
};

int main(int argc, char** argv) {
  ports::ArgReader args(argc, argv);
  const int rank = args.get_int("--local_rank", 0);
  const int world_size = 2;
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/funasr_ddp_store", world_size);
  auto gloo_opts = c10d::ProcessGroupGloo::Options::create();
  gloo_opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size, gloo_opts);

  torch::manual_seed(0);
  DistributedDataParallel model(std::make_shared<ParaformerLite>(80, 500), pg);
  Trainer trainer(model, args.get_int("--accum_grad", 4), rank);
  std::vector<AsrBatch> data;
  torch::manual_seed(10 + rank);
  for (int i = 0; i < 64; ++i) data.push_back({torch::randn({6, 50, 80}), torch::randint(500, {6}, torch::kLong)});
  for (int epoch = 0; epoch < 5; ++epoch) trainer.train_epoch(data, epoch);
  return 0;
}
