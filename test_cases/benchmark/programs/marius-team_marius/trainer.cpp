// Marius SynchronousTrainer (src/cpp/src/pipeline/trainer.cpp) driving
// Model::train_batch (src/cpp/src/nn/model.cpp, armada branch) on a compute
// worker of a distributed run; the trainer decides when the model steps.
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <mutex>
#include <tuple>

#include "marius_standin.h"

class Model : public torch::nn::Module {
 public:
  Model(int64_t dim, shared_ptr<LossFunction> loss, shared_ptr<DistributedConfig> dist_config,
        c10::intrusive_ptr<c10d::ProcessGroupGloo> compute_pg)
      : loss_function_(std::move(loss)), dist_config_(std::move(dist_config)),
        compute_pg_(std::move(compute_pg)) {
    encoder_ = register_module("encoder", torch::nn::Linear(dim, dim));
    decoder_ = register_module("decoder", torch::nn::Linear(dim, dim));
    optimizers_.push_back(std::make_shared<AdagradOptimizer>(parameters(), 0.1));
  }

  void clear_grad() {
    for (auto& opt : optimizers_) opt->clear_grad();
  }
  void step() {
    for (auto& opt : optimizers_) opt->step();
  }

  void distGradSync() {
    if (compute_pg_ == nullptr) return;
    if (dist_config_->model_sync != DistributedModelSync::SYNC_GRADS) return;

    bool success = false;
    while (!success) {
      try {
        std::lock_guard<std::mutex> guard(pg_lock_);
        torch::NoGradGuard no_grad;
        for (auto& item : named_parameters()) {
          auto& param = item.value();
          if (!param.mutable_grad().defined()) {
            param.mutable_grad() = torch::zeros_like(param);
          }
          std::vector<torch::Tensor> transfer_vec = {param.mutable_grad()};
          auto options = c10d::AllreduceOptions();
          options.reduceOp = c10d::ReduceOp::SUM;
          compute_pg_->allreduce(transfer_vec, options)->wait();
          param.mutable_grad() /= (float)compute_pg_->getSize();
        }
        success = true;
      } catch (...) {
        std::cout << "Caught ERROR with distGradSync\n";
      }
    }
  }

  void train_batch(shared_ptr<Batch> batch, bool call_step) {
    auto h = torch::relu(encoder_->forward(batch->node_embeddings_));
    auto src = h.index_select(0, batch->src_pos_);
    auto dst = decoder_->forward(h.index_select(0, batch->dst_pos_));
    auto neg = decoder_->forward(h.index_select(0, batch->neg_));
    auto pos_scores = (src * dst).sum(-1);
    auto neg_scores = torch::matmul(src, neg.t());

    torch::Tensor loss = (*loss_function_)(pos_scores, neg_scores, true);
    batch->loss_ = (double)loss.item<float>();
    (loss / (float)dist_config_->grad_accumulation_steps).backward();

    distGradSync();

    if (call_step) {
      step();
      clear_grad();
    }
  }

  void save(const string& path) {
    torch::serialize::OutputArchive archive;
    torch::nn::Module::save(archive);
    archive.save_to(path);
  }

  torch::nn::Linear encoder_{nullptr}, decoder_{nullptr};
  shared_ptr<LossFunction> loss_function_;
  shared_ptr<DistributedConfig> dist_config_;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> compute_pg_;
  std::vector<shared_ptr<Optimizer>> optimizers_;
  std::mutex pg_lock_;
};

class SynchronousTrainer {
 public:
  SynchronousTrainer(shared_ptr<Model> model, shared_ptr<DistributedConfig> dist_config,
                     int logs_per_epoch)
      : model_(std::move(model)), dist_config_(std::move(dist_config)),
        logs_per_epoch_(logs_per_epoch) {}

  void train(vector<shared_ptr<Batch>>& dataloader, int num_epochs) {
    for (int epoch = 0; epoch < num_epochs; epoch++) {
      Timer timer(false);
      timer.start();
      const int64_t num_batches = dataloader.size();
      const int64_t log_every = std::max<int64_t>(1, num_batches / logs_per_epoch_);
      for (int64_t i = 0; i < num_batches; i++) {
        auto batch = dataloader[i];
        const bool call_step = ++batches_since_step_ % dist_config_->grad_accumulation_steps == 0;
        model_->train_batch(batch, call_step);
        if ((i + 1) % log_every == 0) {
          std::cout << "Epoch " << epoch << " batch " << i + 1 << "/" << num_batches
                    << " loss " << batch->loss_ << std::endl;
        }
      }
      timer.stop();
      std::cout << "Epoch " << epoch << " took " << timer.getDuration() << " ms" << std::endl;
      model_->save("model_" + std::to_string(epoch) + ".pt");
    }
  }

 private:
  shared_ptr<Model> model_;
  shared_ptr<DistributedConfig> dist_config_;
  int logs_per_epoch_;
  int64_t batches_since_step_ = 0;
};
