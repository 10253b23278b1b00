// Marius Model (src/cpp/src/nn/model.cpp, armada branch): link-prediction model
// trained data-parallel across compute workers, with gradient synchronisation
// over a c10d Gloo group (SYNC_GRADS mode) and optional gradient accumulation.
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <mutex>
#include <tuple>

#include "marius_standin.h"

struct ProcessGroupState {
  c10::intrusive_ptr<c10d::ProcessGroupGloo> pg;
  string address;
};

class Model : public torch::nn::Module {
 public:
  Model(int64_t num_nodes, int64_t dim, shared_ptr<LossFunction> loss, float sparse_lr)
      : loss_function_(std::move(loss)), sparse_lr_(sparse_lr) {
    encoder_ = register_module("encoder", torch::nn::Linear(dim, dim));
    relation_ = register_parameter("relation", torch::ones({dim}));
    optimizers_.push_back(std::make_shared<AdagradOptimizer>(parameters(), 0.1));
  }

  void setDistPG(shared_ptr<ProcessGroupState> pg_gloo,
                 shared_ptr<DistributedConfig> dist_config,
                 c10::intrusive_ptr<c10d::ProcessGroupGloo> compute_pg) {
    pg_gloo_ = pg_gloo;
    dist_config_ = dist_config;
    compute_pg_ = compute_pg;
    grad_accum_steps_ = std::max(1, dist_config_->grad_accumulation_steps);
    dist_ = true;
  }

  void clear_grad() {
    for (auto& opt : optimizers_) opt->clear_grad();
  }

  void step() {
    for (auto& opt : optimizers_) opt->step();
  }

  std::tuple<torch::Tensor, torch::Tensor> forward_lp(shared_ptr<Batch> batch, bool train) {
    auto h = encoder_->forward(batch->node_embeddings_);
    auto src = h.index_select(0, batch->src_pos_);
    auto dst = h.index_select(0, batch->dst_pos_);
    auto neg = h.index_select(0, batch->neg_);
    auto pos_scores = (src * relation_ * dst).sum(-1);
    auto neg_scores = torch::matmul(src * relation_, neg.t());
    return std::forward_as_tuple(pos_scores, neg_scores);
  }

  // Averages the dense gradients over the compute workers.
  void distGradSync() {
    if (pg_gloo_ == nullptr || compute_pg_ == nullptr) return;
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
      if (!work->wait()) {
        throw MariusRuntimeException("gradient allreduce failed");
      }
      named_parameters()[key].mutable_grad() /= (float)compute_pg_->getSize();
    }
  }

  // One training batch. The dense step happens once grad_accum_steps_ batches
  // have contributed; the sparse embedding update is applied per batch.
  void train_batch(shared_ptr<Batch> batch, bool call_step = true) {
    if (batch->node_embeddings_.defined()) {
      batch->node_embeddings_.requires_grad_();
    }

    auto scores = forward_lp(batch, true);
    torch::Tensor loss = (*loss_function_)(std::get<0>(scores), std::get<1>(scores), true);
    batch->loss_ = (double)loss.item<float>();

    torch::Tensor scaled_loss = loss / grad_accum_steps_;
    scaled_loss.backward();

    if (call_step) {
      accum_count_++;
      if (accum_count_ == grad_accum_steps_) {
        distGradSync();
        step();
        clear_grad();
        accum_count_ = 0;
      }
    }

    if (batch->node_embeddings_.defined()) {
      batch->accumulateGradients(sparse_lr_);
    }
  }

  void evaluate_batch(shared_ptr<Batch> batch) {
    torch::NoGradGuard no_grad;
    auto scores = forward_lp(batch, false);
    reporter_.addResult(std::get<0>(scores), std::get<1>(scores));
  }

  void save(const string& directory) {
    torch::serialize::OutputArchive archive;
    torch::nn::Module::save(archive);
    archive.save_to(directory + "/model.pt");
  }

  torch::nn::Linear encoder_{nullptr};
  torch::Tensor relation_;
  shared_ptr<LossFunction> loss_function_;
  std::vector<shared_ptr<Optimizer>> optimizers_;
  Reporter reporter_;
  float sparse_lr_;

  shared_ptr<ProcessGroupState> pg_gloo_;
  shared_ptr<DistributedConfig> dist_config_;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> compute_pg_;
  std::mutex pg_lock_;
  bool dist_ = false;
  int grad_accum_steps_ = 1;
  int accum_count_ = 0;
};

// SynchronousTrainer::train of pipeline/trainer.cpp, reduced to the batch loop.
void train_epochs(Model& model, vector<vector<shared_ptr<Batch>>>& epochs, const string& out) {
  Timer timer(false);
  for (size_t epoch = 0; epoch < epochs.size(); epoch++) {
    timer.start();
    double epoch_loss = 0.0;
    for (auto& batch : epochs[epoch]) {
      model.train_batch(batch);
      epoch_loss += batch->loss_;
    }
    timer.stop();
    std::cout << "Epoch " << epoch << " loss " << epoch_loss / epochs[epoch].size()
              << " (" << timer.getDuration() << " ms)" << std::endl;
    model.save(out);
  }
}
