// clang-tidy --fix must give gradlint --fix's text here: the removed reset is
// followed by an indented line of code, which keeps all of its indentation.
#include <torch/torch.h>

void train(torch::nn::Linear model, torch::optim::SGD &opt, const std::vector<torch::Tensor> &xs) {
  const int accum = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    opt.zero_grad();
    auto loss = model->forward(xs[i]).mean() / accum;
    loss.backward();
    if ((i + 1) % accum == 0) {
      opt.step();
    }
  }
}
