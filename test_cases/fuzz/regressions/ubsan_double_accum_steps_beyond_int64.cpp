// UBSan (fuzzer build): constantInt cast the double 1e300 to int64_t.
#include <torch/torch.h>
struct Net : torch::nn::Module {
  torch::nn::Linear fc{nullptr};
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
};
void train(Net &net, torch::optim::SGD &optimizer) {
  const double accum_steps = 1e300;
  int micro = 0;
  for (int i = 0; i < 100; ++i) {
    auto loss = net.forward(torch::randn({4, 8})).sum() / accum_steps;
    loss.backward();
    if (++micro == accum_steps) {
      optimizer.step();
      optimizer.zero_grad();
      micro = 0;
    }
  }
}
