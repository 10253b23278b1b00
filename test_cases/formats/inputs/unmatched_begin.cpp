// A block suppression that is opened and never closed: an error; nothing is suppressed.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt, std::vector<torch::Tensor> &xs) {
  const int accum_steps = 4;
  // NOLINTBEGIN(accum-misplaced-zero-grad)
  for (size_t i = 0; i < xs.size(); ++i) {
    opt.zero_grad();
    auto loss = model->forward(xs[i]).sum() / accum_steps;
    loss.backward();
    if ((i + 1) % accum_steps == 0)
      opt.step();
  }
}
