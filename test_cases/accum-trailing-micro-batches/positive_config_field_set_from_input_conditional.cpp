// RUN: %check_gradlint %s
// Settings with default member initializers that the command line can overwrite: the
// minibatch count through a non-const reference (`read_flag(..., settings.minibatches)`), the
// rollout count through its address (`parse_int(argv[2], &settings.rollouts)`). The defaults
// are not what runs, so the batch counts are unknown and both findings stay conditional (shown
// with --inconclusive only), not definite.
#include <torch/torch.h>
#include <cstdlib>
#include <cstring>

struct Settings {
  int minibatches = 6;
  int rollouts = 10;
};

void read_flag(int argc, char **argv, const char *name, int &out) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], name) == 0)
      out = std::atoi(argv[i + 1]);
}

void parse_int(const char *text, int *out) { *out = std::atoi(text); }

void update(torch::nn::Linear &policy, torch::optim::Adam &adam, const Settings &settings) {
  const int accumulate = 4;
  for (int epoch = 0; epoch < 3; ++epoch) {
    adam.zero_grad();
    for (int m = 0; m < settings.minibatches; ++m) {
      (policy->forward(torch::randn({16, 8})).pow(2).mean() / accumulate).backward();
      if ((m + 1) % accumulate == 0) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window of every epoch never reaches step(): when the loop's batches are not a multiple of N = accumulate = 4, {{.*}} [accum-trailing-micro-batches]
        // CHECK-FIXES-UNSAFE: {{^}}    for (int m = 0; m < settings.minibatches; ++m) {{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}      (policy->forward(torch::randn({16, 8})).pow(2).mean() / static_cast<double>(m >= settings.minibatches - settings.minibatches % accumulate ? settings.minibatches % accumulate : accumulate)).backward();{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if ((m + 1) % accumulate == 0 || m + 1 == settings.minibatches) {{{$}}
        adam.step();
        adam.zero_grad();
      }
    }
  }
}

void collect(torch::nn::Linear &policy, torch::optim::Adam &adam, const Settings &settings) {
  for (int pass = 0; pass < 2; ++pass) {
    adam.zero_grad();
    for (int r = 0; r < settings.rollouts; ++r) {
      (policy->forward(torch::randn({4, 8})).abs().mean() / 3).backward();
      if ((r + 1) % 3 == 0) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: (conditional) the last partial window of every epoch never reaches step(): when the loop's batches are not a multiple of N = 3, {{.*}} [accum-trailing-micro-batches]
        // CHECK-FIXES-UNSAFE: {{^}}    for (int r = 0; r < settings.rollouts; ++r) {{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}      (policy->forward(torch::randn({4, 8})).abs().mean() / static_cast<double>(r >= settings.rollouts - settings.rollouts % 3 ? settings.rollouts % 3 : 3)).backward();{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if ((r + 1) % 3 == 0 || r + 1 == settings.rollouts) {{{$}}
        adam.step();
        adam.zero_grad();
      }
    }
  }
}

int main(int argc, char **argv) {
  Settings settings;
  read_flag(argc, argv, "--minibatches", settings.minibatches);
  if (argc > 2)
    parse_int(argv[2], &settings.rollouts);
  torch::nn::Linear policy(8, 2);
  torch::optim::Adam adam(policy->parameters(), torch::optim::AdamOptions(1e-3));
  update(policy, adam, settings);
  collect(policy, adam, settings);
}
