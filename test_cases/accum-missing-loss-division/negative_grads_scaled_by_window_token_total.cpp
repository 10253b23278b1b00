// RUN: %check_gradlint %s
// Each micro-batch's loss is a sum over its labelled tokens; the window keeps
// a tensor total of those tokens and, at the boundary, a helper multiplies the
// gradients by 1 / total: the step applies the mean over every token of the
// window, the large-batch gradient.
#include <torch/torch.h>

void rescale_gradients(torch::nn::Module &module, const torch::Tensor &factor) {
  for (auto &parameter : module.parameters())
    if (parameter.grad().defined())
      parameter.grad().mul_(factor);
}

void train(torch::nn::Linear projection, torch::optim::AdamW &adamw,
           const std::vector<torch::Tensor> &features,
           const std::vector<torch::Tensor> &tags, int64_t accumulate) {
  torch::Tensor labelled = torch::zeros({}, torch::kLong);
  for (int64_t s = 0; s < static_cast<int64_t>(features.size()); ++s) {
    auto log_probs = torch::log_softmax(projection->forward(features[s]), -1);
    labelled += tags[s].ne(-1).sum();
    auto loss = torch::nll_loss(log_probs, tags[s], {}, at::Reduction::Sum, -1);
    loss.backward();
    if ((s + 1) % accumulate == 0) {
      rescale_gradients(*projection, 1.0 / labelled.clamp_min(1));
      adamw.step();
      adamw.zero_grad();
      labelled.zero_();
    }
  }
}
