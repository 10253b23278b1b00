// Marius Model (src/cpp/src/nn/model.cpp, armada branch), node-classification
// path, with the compute workers joined by an NCCL group (compute_pg_nccl_).
#include <c10d/ProcessGroup.hpp>
#include <torch/torch.h>

#include <mutex>

#include "marius_standin.h"

// Created by Model::createComputePG from the worker list (NCCL backend).
c10::intrusive_ptr<c10d::ProcessGroup> createComputePGNccl(const vector<int>& compute_workers,
                                                          int global_rank);

class Model : public torch::nn::Module {
 public:
  Model(int64_t in_dim, int64_t hidden_dim, int64_t num_classes, shared_ptr<DistributedConfig> cfg)
      : dist_config_(std::move(cfg)) {
    layer1_ = register_module("gs_layer_1", torch::nn::Linear(2 * in_dim, hidden_dim));
    layer2_ = register_module("gs_layer_2", torch::nn::Linear(hidden_dim, num_classes));
    optimizers_.push_back(std::make_shared<AdagradOptimizer>(parameters(), 0.01));
    grad_accum_steps_ = std::max(1, dist_config_->grad_accumulation_steps);
  }

  void createComputePG(const vector<int>& compute_workers, int global_rank) {
    compute_pg_nccl_ = createComputePGNccl(compute_workers, global_rank);
    num_compute_workers_ = compute_pg_nccl_->getSize();
  }

  void clear_grad() {
    for (auto& opt : optimizers_) opt->clear_grad();
  }
  void step() {
    for (auto& opt : optimizers_) opt->step();
  }

  // GraphSage-style mean aggregation over a dense neighbour matrix.
  torch::Tensor forward_nc(torch::Tensor node_features, torch::Tensor adjacency) {
    auto deg = adjacency.sum(1, true).clamp_min(1);
    auto neigh = torch::matmul(adjacency, node_features) / deg;
    auto h = torch::relu(layer1_->forward(torch::cat({node_features, neigh}, 1)));
    return layer2_->forward(h);
  }

  void distGradSync() {
    if (compute_pg_nccl_ == nullptr) return;
    if (dist_config_->model_sync != DistributedModelSync::SYNC_GRADS) return;
    std::lock_guard<std::mutex> guard(pg_lock_);
    torch::NoGradGuard no_grad;
    for (auto& item : named_parameters()) {
      auto& param = item.value();
      if (!param.mutable_grad().defined()) {
        param.mutable_grad() = torch::zeros_like(param);
      }
      std::vector<torch::Tensor> transfer_vec = {param.mutable_grad()};
      // NCCL can average directly, no manual division needed.
      auto options = c10d::AllreduceOptions();
      options.reduceOp = c10d::ReduceOp::AVG;
      compute_pg_nccl_->allreduce(transfer_vec, options)->wait();
    }
  }

  void train_batch(shared_ptr<Batch> batch, torch::Tensor adjacency) {
    torch::Tensor y_pred = forward_nc(batch->node_features_, adjacency);
    torch::Tensor loss =
        torch::nn::functional::cross_entropy(y_pred, batch->node_labels_.to(torch::kInt64));
    batch->loss_ = (double)loss.item<float>();

    // Each worker holds 1 / (accumulation * workers) of the effective batch.
    loss = loss / (grad_accum_steps_ * num_compute_workers_);
    loss.backward();

    if (++accum_count_ < grad_accum_steps_) {
      return;
    }
    accum_count_ = 0;
    distGradSync();
    step();
    clear_grad();
  }

  double evaluate(shared_ptr<Batch> batch, torch::Tensor adjacency) {
    torch::NoGradGuard no_grad;
    auto y_pred = forward_nc(batch->node_features_, adjacency);
    return y_pred.argmax(1).eq(batch->node_labels_).to(torch::kFloat).mean().item<double>();
  }

  torch::nn::Linear layer1_{nullptr}, layer2_{nullptr};
  shared_ptr<DistributedConfig> dist_config_;
  c10::intrusive_ptr<c10d::ProcessGroup> compute_pg_nccl_;
  std::vector<shared_ptr<Optimizer>> optimizers_;
  std::mutex pg_lock_;
  int grad_accum_steps_ = 1;
  int accum_count_ = 0;
  int num_compute_workers_ = 1;
};
