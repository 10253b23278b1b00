// Marius Model::train_batch (src/cpp/src/nn/model.cpp, armada branch) kept in its
// upstream form (clear at the start of a stepping batch, sync and step at its
// end), driven by a trainer that asks for a step only every few batches.
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <mutex>
#include <tuple>

#include "marius_standin.h"

class Model : public torch::nn::Module {
 public:
  Model(int64_t dim, shared_ptr<LossFunction> loss, shared_ptr<DistributedConfig> cfg,
        c10::intrusive_ptr<c10d::ProcessGroupGloo> compute_pg)
      : loss_function_(std::move(loss)), dist_config_(std::move(cfg)),
        compute_pg_(std::move(compute_pg)) {
    encoder_ = register_module("encoder", torch::nn::Linear(dim, dim));
    relation_ = register_parameter("relation", torch::ones({dim}));
    optimizers_.push_back(std::make_shared<AdagradOptimizer>(parameters(), 0.1));
  }

  void clear_grad() {
    for (auto& opt : optimizers_) opt->clear_grad();
  }
  void step() {
    for (auto& opt : optimizers_) opt->step();
  }

  std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor> forward_lp(
      shared_ptr<Batch> batch) {
    auto h = encoder_->forward(batch->node_embeddings_);
    auto src = h.index_select(0, batch->src_pos_);
    auto dst = h.index_select(0, batch->dst_pos_);
    auto neg = h.index_select(0, batch->neg_);
    auto pos_scores = (src * relation_ * dst).sum(-1);
    auto neg_scores = torch::matmul(src * relation_, neg.t());
    auto inv_pos_scores = (dst * relation_ * src).sum(-1);
    auto inv_neg_scores = torch::matmul(dst * relation_, neg.t());
    return std::forward_as_tuple(pos_scores, neg_scores, inv_pos_scores, inv_neg_scores);
  }

  void distGradSync() {
    if (compute_pg_ == nullptr) return;
    if (dist_config_->model_sync != DistributedModelSync::SYNC_GRADS) return;
    std::lock_guard<std::mutex> guard(pg_lock_);
    torch::NoGradGuard no_grad;
    for (size_t i = 0; i < named_parameters().keys().size(); i++) {
      string key = named_parameters().keys()[i];
      if (!named_parameters()[key].mutable_grad().defined()) {
        named_parameters()[key].mutable_grad() = torch::zeros_like(named_parameters()[key]);
      }
      std::vector<torch::Tensor> transfer_vec = {named_parameters()[key].mutable_grad()};
      auto options = c10d::AllreduceOptions();
      options.reduceOp = c10d::ReduceOp::SUM;
      auto work = compute_pg_->allreduce(transfer_vec, options);
      if (!work->wait()) throw MariusRuntimeException("allreduce failed");
      named_parameters()[key].mutable_grad() /= (float)compute_pg_->getSize();
    }
  }

  void train_batch(shared_ptr<Batch> batch, bool call_step = true) {
    if (call_step) {
      clear_grad();
    }

    if (batch->node_embeddings_.defined()) {
      batch->node_embeddings_.requires_grad_();
    }

    auto all_scores = forward_lp(batch);
    torch::Tensor rhs_loss = (*loss_function_)(std::get<0>(all_scores), std::get<1>(all_scores), true);
    torch::Tensor lhs_loss = (*loss_function_)(std::get<2>(all_scores), std::get<3>(all_scores), true);
    torch::Tensor loss = lhs_loss + rhs_loss;
    batch->loss_ = (double)loss.item<float>();

    (loss / (float)dist_config_->grad_accumulation_steps).backward();

    if (call_step) {
      distGradSync();
      step();
    }

    if (batch->node_embeddings_.defined()) {
      batch->accumulateGradients(0.1f);
    }
  }

  torch::nn::Linear encoder_{nullptr};
  torch::Tensor relation_;
  shared_ptr<LossFunction> loss_function_;
  shared_ptr<DistributedConfig> dist_config_;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> compute_pg_;
  std::vector<shared_ptr<Optimizer>> optimizers_;
  std::mutex pg_lock_;
};

// SynchronousTrainer::train (src/cpp/src/pipeline/trainer.cpp), batch loop only.
void train_epochs(Model& model, vector<shared_ptr<Batch>>& batches, int num_epochs,
                  int grad_accumulation_steps) {
  int64_t global_batch = 0;
  for (int epoch = 0; epoch < num_epochs; ++epoch) {
    double total_loss = 0.0;
    for (auto& batch : batches) {
      const bool call_step = (global_batch + 1) % grad_accumulation_steps == 0;
      model.train_batch(batch, call_step);
      total_loss += batch->loss_;
      global_batch++;
    }
    std::cout << "Epoch " << epoch << " loss " << total_loss / batches.size() << std::endl;
  }
}
