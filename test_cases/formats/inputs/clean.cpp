// A correct accumulation loop: no findings.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt, std::vector<torch::Tensor> &xs) {
  const int accum_steps = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = model->forward(xs[i]).sum() / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0) {
      opt.step();
      opt.zero_grad();
    }
  }
}
