// RUN: %check_gradlint %s
// A literal trip count written in the loop: 30 batches, windows of 8, so 6 batches of each
// epoch are backpropagated and then carried into the next epoch's first window (nothing resets
// .grad between epochs). Definite: both numbers are in the code.
#include <torch/torch.h>

struct Regressor : torch::nn::Module {
  Regressor() : fc(register_module("fc", torch::nn::Linear(6, 1))) {}
  torch::Tensor forward(const torch::Tensor &x) { return fc->forward(x); }
  torch::nn::Linear fc;
};

void fit(std::shared_ptr<Regressor> net, const torch::Tensor &features, const torch::Tensor &target) {
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(3e-4));
  const int64_t micro_steps = 8;
  for (int epoch = 0; epoch < 5; ++epoch) {
    for (int64_t i = 0; i < 30; ++i) {
      auto rows = features.narrow(0, i * 4, 4);
      auto loss = torch::l1_loss(net->forward(rows), target.narrow(0, i * 4, 4));
      (loss / micro_steps).backward();
      if (i % micro_steps == micro_steps - 1) {
      // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: the last partial window of every epoch never reaches step(): the loop runs 30 batches, not a multiple of N = micro_steps = 8: the 6 micro-batches after its last boundary {{.*}} [accum-trailing-micro-batches]
        // CHECK-FIXES-UNSAFE: {{^}}      auto loss = torch::l1_loss(net->forward(rows), target.narrow(0, i * 4, 4));{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}      (loss / static_cast<double>(i >= 30 - 30 % micro_steps ? 30 % micro_steps : micro_steps)).backward();{{$}}
        // CHECK-FIXES-UNSAFE-NEXT: {{^}}      if (i % micro_steps == micro_steps - 1 || i + 1 == 30) {{{$}}
        adam.step();
        adam.zero_grad();
      }
    }
  }
}
