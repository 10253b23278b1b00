// RUN: %check_gradlint %s
// The update helper resets only on request; the boundary call requests it (and an
// unrelated call site elsewhere, which does not step in a window, does not).
#include <torch/torch.h>

struct Updater {
  torch::optim::Adam &optimizer;
  void operator()(bool reset) {
    optimizer.step();
    if (!reset)
      return;
    optimizer.zero_grad();
  }
};

void train(torch::nn::Sequential model, const std::vector<torch::Tensor> &inputs,
           const std::vector<torch::Tensor> &labels) {
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3));
  Updater update{adam};
  const int64_t micro = 2;
  for (int64_t k = 0; k < static_cast<int64_t>(inputs.size()); ++k) {
    auto loss = torch::nll_loss(model->forward(inputs[k]), labels[k]) / micro;
    loss.backward();
    if (k % micro == micro - 1)
      update(/*reset=*/true);
  }
}
