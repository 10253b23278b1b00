// RUN: %check_gradlint %s
// The loss is divided by a field of a run config declared in a header (default 1), while the
// window's N is the caller's parameter. Nothing in this file writes the field, but the config
// object comes from elsewhere (a parser in another translation unit can fill it), so its
// default 1 is not taken for the divisor's value: no missing-division finding.
#include "cluster_run_config.h"

#include <memory>
#include <torch/torch.h>
#include <vector>

class Ranker {
public:
  Ranker(std::shared_ptr<ClusterRunConfig> config) : config_(std::move(config)) {}

  void train_batch(const torch::Tensor &pairs, bool apply) {
    auto score = scorer_->forward(pairs).squeeze(1);
    auto loss = torch::softplus(-score).mean();
    (loss / static_cast<float>(config_->grad_accumulation_steps)).backward();
    if (apply) {
      adagrad_.step();
      adagrad_.zero_grad();
    }
  }

private:
  std::shared_ptr<ClusterRunConfig> config_;
  torch::nn::Linear scorer_{32, 1};
  torch::optim::Adagrad adagrad_{scorer_->parameters(), torch::optim::AdagradOptions(0.1)};
};

void run_epochs(Ranker &ranker, const std::vector<torch::Tensor> &batches, int epochs,
                int accumulation) {
  int64_t seen = 0;
  for (int epoch = 0; epoch < epochs; ++epoch)
    for (const auto &pairs : batches) {
      ranker.train_batch(pairs, (seen + 1) % accumulation == 0);
      ++seen;
    }
}
