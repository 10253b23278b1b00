// RUN: %check_gradlint %s
// Token-level normalisation over the whole window: each micro-batch's summed token loss is
// divided by the number of tokens the window holds, counted before the window runs. That is
// the large-batch mean, without dividing by N.
#include <torch/torch.h>

void train_lm(torch::nn::Embedding emb, torch::nn::Linear proj, torch::optim::AdamW &opt,
              const std::vector<torch::Tensor> &tokens, const std::vector<torch::Tensor> &mask,
              int micro_batches) {
  for (size_t first = 0; first + micro_batches <= tokens.size(); first += micro_batches) {
    int64_t window_tokens = 0;
    for (int k = 0; k < micro_batches; ++k)
      window_tokens += mask[first + k].sum().item<int64_t>();
    for (int k = 0; k < micro_batches; ++k) {
      auto logits = proj->forward(emb->forward(tokens[first + k]));
      auto per_token = torch::nn::functional::cross_entropy(
          logits.flatten(0, 1), tokens[first + k].flatten(),
          torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kNone));
      auto summed = (per_token * mask[first + k].flatten()).sum();
      (summed / static_cast<double>(window_tokens)).backward();
    }
    opt.step();
    opt.zero_grad();
  }
}
