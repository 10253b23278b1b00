// Small stand-ins shared by the programs of the "ports" group: a metrics
// logger in the spirit of wandb/tensorboard, an argument reader, and
// synthetic data sources (token batches, image batches, regression batches).
// Nothing here touches gradients, optimizers or schedulers.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace ports {

// ---------------------------------------------------------------- logging
class MetricsLogger {
 public:
  explicit MetricsLogger(std::string project = "run") : project_(std::move(project)) {}
  void log(const std::map<std::string, double>& values, int64_t step) {
    std::cout << "[" << project_ << "] step " << step;
    for (const auto& kv : values) std::cout << " " << kv.first << "=" << kv.second;
    std::cout << "\n";
  }
  void info(const std::string& msg) { std::cout << "[" << project_ << "] " << msg << "\n"; }

 private:
  std::string project_;
};

// ------------------------------------------------------------ arguments
class ArgReader {
 public:
  ArgReader(int argc, char** argv) : argc_(argc), argv_(argv) {}
  int get_int(const std::string& key, int fallback) const {
    for (int i = 1; i + 1 < argc_; ++i)
      if (key == argv_[i]) return std::atoi(argv_[i + 1]);
    return fallback;
  }
  double get_double(const std::string& key, double fallback) const {
    for (int i = 1; i + 1 < argc_; ++i)
      if (key == argv_[i]) return std::atof(argv_[i + 1]);
    return fallback;
  }
  bool has(const std::string& key) const {
    for (int i = 1; i < argc_; ++i)
      if (key == argv_[i]) return true;
    return false;
  }

 private:
  int argc_;
  char** argv_;
};

// ------------------------------------------------------------------ data
struct TokenBatch {
  torch::Tensor input_ids;  // [B, T] int64
  torch::Tensor labels;     // [B, T] int64, -100 where ignored
};

// Variable-length causal-LM batches: every row has a random number of
// supervised tokens, so batches carry different token counts.
inline std::vector<TokenBatch> make_token_batches(int64_t n_batches, int64_t batch,
                                                  int64_t seq_len, int64_t vocab,
                                                  uint64_t seed = 0) {
  torch::manual_seed(seed);
  std::vector<TokenBatch> out;
  for (int64_t b = 0; b < n_batches; ++b) {
    auto ids = torch::randint(vocab, {batch, seq_len}, torch::kLong);
    auto labels = ids.clone();
    auto lengths = torch::randint(1, seq_len + 1, {batch}, torch::kLong);
    auto pos = torch::arange(seq_len, torch::kLong).unsqueeze(0).expand({batch, seq_len});
    labels.masked_fill_(pos >= lengths.unsqueeze(1), -100);
    out.push_back({ids, labels});
  }
  return out;
}

struct ImageBatch {
  torch::Tensor images;   // [B, C, H, W]
  torch::Tensor targets;  // [B] int64 class ids
};

inline std::vector<ImageBatch> make_image_batches(int64_t n_batches, int64_t batch,
                                                  int64_t channels, int64_t size,
                                                  int64_t classes, uint64_t seed = 0) {
  torch::manual_seed(seed);
  std::vector<ImageBatch> out;
  for (int64_t b = 0; b < n_batches; ++b)
    out.push_back({torch::randn({batch, channels, size, size}),
                   torch::randint(classes, {batch}, torch::kLong)});
  return out;
}

struct Example {
  torch::Tensor x;
  torch::Tensor y;
};

inline std::vector<Example> make_regression_batches(int64_t n_batches, int64_t batch,
                                                    int64_t in_dim, int64_t out_dim,
                                                    uint64_t seed = 0) {
  torch::manual_seed(seed);
  std::vector<Example> out;
  for (int64_t b = 0; b < n_batches; ++b)
    out.push_back({torch::randn({batch, in_dim}), torch::randn({batch, out_dim})});
  return out;
}

}  // namespace ports
