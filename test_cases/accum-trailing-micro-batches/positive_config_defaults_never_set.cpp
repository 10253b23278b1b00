// RUN: %check_gradlint %s
// A PPO-style update reads its sizes from a settings struct passed by const reference. Nothing
// in the file writes those fields (the one Settings object is default-built), so they keep
// their default member initializers: 6 minibatches per epoch, a step every 4. The last 2 of
// every epoch are backpropagated and then thrown away by the next epoch's zero_grad().
#include <torch/torch.h>

struct Settings {
  int epochs = 3;
  int minibatches = 6;
  int accumulate = 4;
  double lr = 3e-4;
};

void update(torch::nn::Linear &policy, torch::optim::Adam &adam, const torch::Tensor &obs,
            const Settings &settings) {
  auto pieces = obs.chunk(settings.minibatches);
  for (int epoch = 0; epoch < settings.epochs; ++epoch) {
    adam.zero_grad();
    for (int m = 0; m < settings.minibatches; ++m) {
      auto loss = policy->forward(pieces[m]).pow(2).mean() / settings.accumulate;
      // CHECK-FIXES-UNSAFE: {{^}}    for (int m = 0; m < settings.minibatches; ++m) {{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      auto loss = policy->forward(pieces[m]).pow(2).mean() / static_cast<double>(m >= settings.minibatches - settings.minibatches % settings.accumulate ? settings.minibatches % settings.accumulate : settings.accumulate);{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      loss.backward();{{$}}
      // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if ((m + 1) % settings.accumulate == 0 || m + 1 == settings.minibatches) {{{$}}
      loss.backward();
      if ((m + 1) % settings.accumulate == 0) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: the last partial window of every epoch never reaches step(): the loop runs settings.minibatches = 6 batches, not a multiple of N = settings.accumulate = 4: the 2 micro-batches after its last boundary {{.*}} discards them [accum-trailing-micro-batches]
        adam.step();
        adam.zero_grad();
      }
    }
  }
}

int main() {
  Settings settings;
  torch::nn::Linear policy(8, 2);
  torch::optim::Adam adam(policy->parameters(), torch::optim::AdamOptions(settings.lr));
  for (int rollout = 0; rollout < 10; ++rollout)
    update(policy, adam, torch::randn({96, 8}), settings);
}
