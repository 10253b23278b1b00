// TRUTH: buggy: loss not divided by kAccum (4), boundary via 'if ((i+1) % kAccum != 0) continue;'; expect a numerical effect even with Adam, because Adam's coupled L2 weight_decay (1e-2) is added to the 4x-too-large gradient, so the relative weight of the decay changes (without decay Adam would hide the scale).
#include <torch/torch.h>

#include <iostream>
#include <vector>

namespace {
constexpr int kAccum = 4;

torch::Tensor make_targets(const torch::Tensor& x) { return x.sum(1, /*keepdim=*/true).sin(); }
}  // namespace

int main() {
  torch::manual_seed(42);
  torch::nn::Sequential mlp{torch::nn::Linear(10, 32), torch::nn::GELU(), torch::nn::Linear(32, 1)};
  torch::optim::Adam adam(mlp->parameters(),
                          torch::optim::AdamOptions(1e-3).weight_decay(1e-2));

  std::vector<torch::Tensor> inputs;
  for (int k = 0; k < 40; ++k) inputs.push_back(torch::randn({12, 10}));

  adam.zero_grad();
  for (size_t i = 0; i < inputs.size(); ++i) {
    const auto& x = inputs[i];
    auto loss = torch::mse_loss(mlp->forward(x), make_targets(x));
    loss.backward();  // sums kAccum mean-loss gradients

    if ((i + 1) % kAccum != 0) continue;

    adam.step();
    adam.zero_grad();
    if ((i + 1) % 20 == 0) std::cout << "iter " << i + 1 << " loss " << loss.item<float>() << '\n';
  }
  return 0;
}
