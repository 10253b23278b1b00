// RUN: %check_gradlint %s
// A helper predicate decides the boundary, and the clip is inside it: correct.
#include <torch/torch.h>

static bool should_step(int i, int n) { return (i + 1) % n == 0; }

void train(torch::nn::Linear &model, torch::optim::Adam &adam,
           std::vector<torch::Tensor> &inputs, std::vector<torch::Tensor> &targets) {
  const int window = 4;
  for (int i = 0; i < static_cast<int>(inputs.size()); ++i) {
    torch::Tensor scaled = torch::smooth_l1_loss(model->forward(inputs[i]), targets[i]) /
                           static_cast<double>(window);
    scaled.backward();
    if (should_step(i, window)) {
      torch::nn::utils::clip_grad_norm_(model->parameters(), 0.25);
      adam.step();
      adam.zero_grad();
    }
  }
}
