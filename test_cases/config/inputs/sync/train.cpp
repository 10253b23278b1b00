// A library helper all-reduces every gradient; its body is not visible here,
// so only GradientSyncFunctions tells gradlint that it syncs gradients. It runs
// on every micro-batch instead of once per window.
#include <torch/torch.h>

namespace dist {
void average_gradients(torch::nn::Module &model);
}

void train(torch::nn::Linear &model, std::vector<torch::Tensor> &inputs,
           std::vector<torch::Tensor> &targets) {
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01));
  const int accum_steps = 4;
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(inputs[i]), targets[i]) / accum_steps;
    loss.backward();
    dist::average_gradients(*model);
    if ((i + 1) % accum_steps == 0) {
      optimizer.step();
      optimizer.zero_grad();
    }
  }
}
