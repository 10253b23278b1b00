// Stand-ins for the Marius (armada branch) types that Model::train_batch and the
// trainer touch: configuration, Batch, loss functions, reporters and Marius' own
// optimizer wrappers (clear_grad()/step() over a parameter dictionary).
#pragma once

#include <atomic>
#include <chrono>
#include <iostream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include <torch/torch.h>

using std::shared_ptr;
using std::string;
using std::vector;

class MariusRuntimeException : public std::runtime_error {
 public:
  explicit MariusRuntimeException(const std::string& msg) : std::runtime_error(msg) {}
};

enum class LearningTask { LINK_PREDICTION, NODE_CLASSIFICATION };
enum class DistributedModelSync { SYNC_GRADS, SYNC_PARAMS };

struct DistributedConfig {
  DistributedModelSync model_sync = DistributedModelSync::SYNC_GRADS;
  int grad_accumulation_steps = 1;
};

struct Batch {
  torch::Tensor node_embeddings_;
  torch::Tensor node_features_;
  torch::Tensor node_labels_;
  torch::Tensor src_pos_, dst_pos_, neg_;
  double loss_ = 0.0;
  int64_t batch_id_ = 0;
  vector<shared_ptr<Batch>> sub_batches_;

  // Sparse embedding update done by the batch itself (Adagrad on the rows used).
  void accumulateGradients(float learning_rate) {
    if (node_embeddings_.defined() && node_embeddings_.grad().defined()) {
      node_embeddings_.grad().mul_(learning_rate);
    }
  }
};

class LossFunction {
 public:
  virtual ~LossFunction() = default;
  virtual torch::Tensor operator()(torch::Tensor pos_scores, torch::Tensor neg_scores,
                                   bool scores_2d) = 0;
};

class SoftmaxCrossEntropy : public LossFunction {
 public:
  torch::Tensor operator()(torch::Tensor pos_scores, torch::Tensor neg_scores,
                           bool scores_2d) override {
    auto all = torch::cat({pos_scores.unsqueeze(1), neg_scores}, 1);
    return -torch::log_softmax(all, 1).select(1, 0).mean();
  }
};

class Reporter {
 public:
  void addResult(torch::Tensor pos, torch::Tensor neg) { ++count_; }
  void report() { std::cout << "evaluated batches: " << count_ << std::endl; }

 private:
  int64_t count_ = 0;
};

// Marius keeps its own optimizer classes; these forward to the LibTorch ones.
class Optimizer {
 public:
  virtual ~Optimizer() = default;
  virtual void clear_grad() = 0;
  virtual void step() = 0;
};

class AdagradOptimizer : public Optimizer {
 public:
  AdagradOptimizer(std::vector<torch::Tensor> params, double lr)
      : opt_(std::move(params), torch::optim::AdagradOptions(lr)) {}
  void clear_grad() override { opt_.zero_grad(); }
  void step() override { opt_.step(); }

 private:
  torch::optim::Adagrad opt_;
};

class Timer {
 public:
  explicit Timer(bool gpu) {}
  void start() { t0_ = std::chrono::steady_clock::now(); }
  void stop() { t1_ = std::chrono::steady_clock::now(); }
  int64_t getDuration() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(t1_ - t0_).count();
  }

 private:
  std::chrono::steady_clock::time_point t0_, t1_;
};
