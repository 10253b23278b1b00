// Marius Model::train_batch (src/cpp/src/nn/model.cpp, armada branch) for a
// compute worker whose gradient group is NCCL (compute_pg_nccl_), with the
// optimizer stepping once per grad_accum_steps_ batches.
#include <c10d/ProcessGroup.hpp>
#include <torch/torch.h>

#include <mutex>
#include <tuple>

#include "marius_standin.h"

c10::intrusive_ptr<c10d::ProcessGroup> createComputePGNccl(const vector<int>& compute_workers,
                                                          int global_rank);

class Model : public torch::nn::Module {
 public:
  Model(int64_t dim, shared_ptr<LossFunction> loss, shared_ptr<DistributedConfig> cfg)
      : loss_function_(std::move(loss)), dist_config_(std::move(cfg)) {
    encoder_ = register_module("encoder", torch::nn::Linear(dim, dim));
    rel_emb_ = register_parameter("relation_embeddings", torch::randn({16, dim}) * 0.01);
    optimizers_.push_back(std::make_shared<AdagradOptimizer>(parameters(), 0.1));
    grad_accum_steps_ = std::max(1, dist_config_->grad_accumulation_steps);
  }

  void createComputePG(const vector<int>& workers, int global_rank) {
    compute_pg_nccl_ = createComputePGNccl(workers, global_rank);
  }

  void clear_grad() {
    for (auto& opt : optimizers_) opt->clear_grad();
  }
  void step() {
    for (auto& opt : optimizers_) opt->step();
  }

  std::tuple<torch::Tensor, torch::Tensor> forward_lp(shared_ptr<Batch> batch) {
    auto h = encoder_->forward(batch->node_embeddings_);
    auto rel = rel_emb_.index({batch->batch_id_ % rel_emb_.size(0)});
    auto src = h.index_select(0, batch->src_pos_);
    auto dst = h.index_select(0, batch->dst_pos_);
    auto neg = h.index_select(0, batch->neg_);
    return std::forward_as_tuple((src * rel * dst).sum(-1), torch::matmul(src * rel, neg.t()));
  }

  void distGradSync() {
    if (compute_pg_nccl_ == nullptr) return;
    if (dist_config_->model_sync != DistributedModelSync::SYNC_GRADS) return;
    std::lock_guard<std::mutex> guard(pg_lock_);
    torch::NoGradGuard no_grad;
    std::vector<torch::Tensor> grads;
    for (auto& item : named_parameters()) {
      if (!item.value().mutable_grad().defined()) {
        item.value().mutable_grad() = torch::zeros_like(item.value());
      }
      grads.push_back(item.value().mutable_grad());
    }
    c10d::AllreduceCoalescedOptions options;
    options.reduceOp = c10d::ReduceOp::AVG;
    compute_pg_nccl_->allreduce_coalesced(grads, options)->wait();
  }

  void train_batch(shared_ptr<Batch> batch) {
    if (batches_seen_ % grad_accum_steps_ == 0) {
      clear_grad();
    }

    if (batch->node_embeddings_.defined()) {
      batch->node_embeddings_.requires_grad_();
    }
    auto scores = forward_lp(batch);
    torch::Tensor loss = (*loss_function_)(std::get<0>(scores), std::get<1>(scores), true);
    batch->loss_ = (double)loss.item<float>();
    torch::autograd::backward({loss / (float)grad_accum_steps_});

    if (batches_seen_ % grad_accum_steps_ == grad_accum_steps_ - 1) {
      distGradSync();
      step();
    }
    batches_seen_++;

    if (batch->node_embeddings_.defined()) {
      batch->accumulateGradients(0.1f);
    }
  }

  torch::nn::Linear encoder_{nullptr};
  torch::Tensor rel_emb_;
  shared_ptr<LossFunction> loss_function_;
  shared_ptr<DistributedConfig> dist_config_;
  c10::intrusive_ptr<c10d::ProcessGroup> compute_pg_nccl_;
  std::vector<shared_ptr<Optimizer>> optimizers_;
  std::mutex pg_lock_;
  int grad_accum_steps_ = 1;
  int64_t batches_seen_ = 0;
};

void train_worker(Model& model, vector<shared_ptr<Batch>>& batches, int num_epochs) {
  for (int epoch = 0; epoch < num_epochs; epoch++) {
    double total = 0.0;
    for (auto& batch : batches) {
      model.train_batch(batch);
      total += batch->loss_;
    }
    std::cout << "Epoch " << epoch << " mean loss " << total / batches.size() << std::endl;
  }
}
