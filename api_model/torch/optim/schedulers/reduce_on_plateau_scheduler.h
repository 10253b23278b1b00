#pragma once
// gradlint LibTorch API model: torch::optim::ReduceLROnPlateauScheduler of LibTorch 2.x (not
// in 1.13; see torch/gradlint_libtorch2_names.h). Private members are left out.
#include <torch/optim/optimizer.h>
#include <torch/optim/schedulers/lr_scheduler.h>
#include <vector>

namespace torch {
namespace optim {
class TORCH_API ReduceLROnPlateauScheduler {
 public:
  enum SchedulerMode { min, max };
  enum ThresholdMode { rel, abs };
  ReduceLROnPlateauScheduler(Optimizer& optimizer, SchedulerMode mode = min, float factor = 0.1,
                             int patience = 10, double threshold = 1e-4,
                             ThresholdMode threshold_mode = rel, int cooldown = 0,
                             const std::vector<float>& min_lr = std::vector<float>(), double eps = 1e-8,
                             bool verbose = false);
  virtual ~ReduceLROnPlateauScheduler() = default;
  void step(float metric);
};
} // namespace optim
} // namespace torch
