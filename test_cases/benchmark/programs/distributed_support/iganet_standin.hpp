// Stand-ins for the iganet pieces used by IgANet::train (include/iganet/net/iganet.hpp):
// the logger, the options holder and the fully connected generator network.
#pragma once

#include <iostream>
#include <string>
#include <vector>

#include <torch/torch.h>

namespace iganet {

namespace log {
enum level { error, warning, info, verbose, debug };
}

inline std::ostream& Log(log::level lvl) {
  static const char* names[] = {"[ERROR] ", "[WARN] ", "[INFO] ", "[VERBOSE] ", "[DEBUG] "};
  return (lvl <= log::info ? std::cout : std::clog) << names[lvl];
}

class IgANetOptions {
 public:
  int64_t& max_epoch() { return max_epoch_; }
  double& min_loss() { return min_loss_; }
  double& min_loss_change() { return min_loss_change_; }
  double& min_loss_rel_change() { return min_loss_rel_change_; }
  int64_t& batch_size() { return batch_size_; }
  int64_t max_epoch() const { return max_epoch_; }
  double min_loss() const { return min_loss_; }
  double min_loss_change() const { return min_loss_change_; }
  double min_loss_rel_change() const { return min_loss_rel_change_; }

 private:
  int64_t max_epoch_ = 100;
  double min_loss_ = 1e-10;
  double min_loss_change_ = 0.0;
  double min_loss_rel_change_ = 0.0;
  int64_t batch_size_ = 1000;
};

// Fully connected network mapping spline inputs to spline coefficients.
class IgANetGeneratorImpl : public torch::nn::Module {
 public:
  explicit IgANetGeneratorImpl(const std::vector<int64_t>& layers) {
    for (size_t i = 0; i + 1 < layers.size(); ++i) {
      layers_.push_back(register_module("layer[" + std::to_string(i) + "]",
                                        torch::nn::Linear(layers[i], layers[i + 1])));
    }
  }

  torch::Tensor forward(torch::Tensor x) {
    for (size_t i = 0; i < layers_.size(); ++i) {
      x = layers_[i]->forward(x);
      if (i + 1 < layers_.size()) x = torch::tanh(x);
    }
    return x;
  }

 private:
  std::vector<torch::nn::Linear> layers_;
};
TORCH_MODULE(IgANetGenerator);

}  // namespace iganet
