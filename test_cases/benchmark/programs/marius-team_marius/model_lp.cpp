// Marius link-prediction Model (src/cpp/src/nn/model.cpp, armada branch) on a
// Gloo compute group: learning rate scaled with the number of workers, dense
// gradients synchronised once per accumulation window, and a per-batch
// gradient-norm report gathered from all workers.
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <cmath>
#include <mutex>
#include <tuple>

#include "marius_standin.h"

class Model : public torch::nn::Module {
 public:
  Model(int64_t dim, double base_lr, shared_ptr<LossFunction> loss,
        shared_ptr<DistributedConfig> cfg, c10::intrusive_ptr<c10d::ProcessGroupGloo> compute_pg)
      : loss_function_(std::move(loss)), dist_config_(std::move(cfg)),
        compute_pg_(std::move(compute_pg)) {
    encoder_ = register_module("encoder", torch::nn::Linear(dim, dim));
    relation_ = register_parameter("relation", torch::ones({dim}));
    // Linear scaling rule: the global batch grows with the number of workers.
    const double lr = base_lr * compute_pg_->getSize();
    optimizers_.push_back(std::make_shared<AdagradOptimizer>(parameters(), lr));
  }

  void clear_grad() {
    for (auto& opt : optimizers_) opt->clear_grad();
  }
  void step() {
    for (auto& opt : optimizers_) opt->step();
  }

  void distGradSync() {
    if (dist_config_->model_sync != DistributedModelSync::SYNC_GRADS) return;
    std::lock_guard<std::mutex> guard(pg_lock_);
    torch::NoGradGuard no_grad;
    for (auto& item : named_parameters()) {
      auto& param = item.value();
      if (!param.mutable_grad().defined()) param.mutable_grad() = torch::zeros_like(param);
      std::vector<torch::Tensor> transfer_vec = {param.mutable_grad()};
      auto options = c10d::AllreduceOptions();
      options.reduceOp = c10d::ReduceOp::SUM;
      compute_pg_->allreduce(transfer_vec, options)->wait();
      param.mutable_grad() /= (float)compute_pg_->getSize();
    }
  }

  // Global L2 norm of the current (partial) gradients, for the progress log.
  double global_grad_norm() {
    torch::NoGradGuard no_grad;
    auto sq = torch::zeros({1});
    for (auto& p : parameters()) {
      if (p.grad().defined()) sq += p.grad().pow(2).sum();
    }
    std::vector<torch::Tensor> buf = {sq};
    compute_pg_->allreduce(buf)->wait();
    return std::sqrt(buf[0].item<double>());
  }

  void train_batch(shared_ptr<Batch> batch, int64_t batch_idx, int64_t num_batches) {
    auto h = encoder_->forward(batch->node_embeddings_);
    auto src = h.index_select(0, batch->src_pos_);
    auto dst = h.index_select(0, batch->dst_pos_);
    auto neg = h.index_select(0, batch->neg_);
    auto pos_scores = (src * relation_ * dst).sum(-1);
    auto neg_scores = torch::matmul(src * relation_, neg.t());
    torch::Tensor loss = (*loss_function_)(pos_scores, neg_scores, true);
    batch->loss_ = (double)loss.item<float>();

    const int64_t n = dist_config_->grad_accumulation_steps;
    const int64_t window_begin = batch_idx - batch_idx % n;
    const int64_t window = std::min(n, num_batches - window_begin);
    (loss / (double)window).backward();

    if (batch_idx % 100 == 0) {
      std::cout << "batch " << batch_idx << " grad norm " << global_grad_norm() << std::endl;
    }

    if ((batch_idx + 1) % n == 0 || batch_idx + 1 == num_batches) {
      distGradSync();
      step();
      clear_grad();
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

void train(Model& model, vector<vector<shared_ptr<Batch>>>& epochs) {
  for (size_t epoch = 0; epoch < epochs.size(); ++epoch) {
    const int64_t num_batches = epochs[epoch].size();
    for (int64_t i = 0; i < num_batches; ++i) {
      model.train_batch(epochs[epoch][i], i, num_batches);
    }
  }
}
