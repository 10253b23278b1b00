// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-trailing-micro-batches not-confirmed: no numerical effect.*multiple of N
// A trainer object keeps a pointer to 64 batches a helper built and takes N from a command-line
// reader whose fallback is 8: with the defaults every epoch is 8 whole windows, so there is no
// definite finding. Other values of --accum may leave a remainder: conditional only.
#include <torch/torch.h>
#include <cstdlib>
#include <cstring>
#include <vector>

class Flags {
public:
  Flags(int argc, char **argv) : argc_(argc), argv_(argv) {}
  int integer(const char *name, int fallback) const {
    for (int i = 1; i + 1 < argc_; ++i)
      if (std::strcmp(argv_[i], name) == 0)
        return std::atoi(argv_[i + 1]);
    return fallback;
  }

private:
  int argc_;
  char **argv_;
};

std::vector<torch::Tensor> make_inputs(int64_t n) {
  std::vector<torch::Tensor> out;
  for (int64_t k = 0; k < n; ++k)
    out.push_back(torch::randn({4, 16}));
  return out;
}

class Trainer {
public:
  Trainer(int accumulation) : accumulation_(accumulation) {}
  void attach(const std::vector<torch::Tensor> &inputs) { inputs_ = &inputs; }
  void fit(int epochs) {
    for (int e = 0; e < epochs; ++e) {
      for (size_t idx = 0; idx < inputs_->size(); ++idx) {
        (net_->forward((*inputs_)[idx]).square().mean() / accumulation_).backward();
        if ((idx + 1) % accumulation_ == 0) {
        // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: (conditional) the last partial window of every epoch never reaches step(): when the loop's batches are not a multiple of N = accumulation_, {{.*}} [accum-trailing-micro-batches]
          // CHECK-FIXES-UNSAFE: {{^}}      for (size_t idx = 0; idx < inputs_->size(); ++idx) {{{$}}
          // CHECK-FIXES-UNSAFE-NEXT: {{^}}        (net_->forward((*inputs_)[idx]).square().mean() / static_cast<double>(idx >= inputs_->size() - inputs_->size() % accumulation_ ? inputs_->size() % accumulation_ : accumulation_)).backward();{{$}}
          // CHECK-FIXES-UNSAFE-NEXT: {{^}}        if ((idx + 1) % accumulation_ == 0 || idx + 1 == inputs_->size()) {{{$}}
          sgd_.step();
          sgd_.zero_grad();
        }
      }
    }
  }

private:
  int accumulation_;
  const std::vector<torch::Tensor> *inputs_ = nullptr;
  torch::nn::Linear net_{16, 1};
  torch::optim::SGD sgd_{net_->parameters(), torch::optim::SGDOptions(0.1)};
};

int main(int argc, char **argv) {
  Flags flags(argc, argv);
  auto inputs = make_inputs(64);
  Trainer trainer(flags.integer("--accum", 8));
  trainer.attach(inputs);
  trainer.fit(3);
}
