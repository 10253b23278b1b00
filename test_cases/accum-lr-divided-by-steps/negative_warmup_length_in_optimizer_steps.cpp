// RUN: %check_gradlint %s
// A linear warm-up whose length is counted in optimizer steps: the batch count divided by
// the accumulation steps. The rate is divided by that length, which shrinks as N grows, so
// the rate is not divided by N (the loss is).
#include <torch/torch.h>

double warmup_rate(int64_t step, int64_t warmup, double peak) {
  if (step >= warmup)
    return peak;
  return peak * static_cast<double>(step + 1) / static_cast<double>(warmup);
}

void pretrain(torch::nn::Sequential lm, const std::vector<torch::Tensor> &tokens,
              const std::vector<torch::Tensor> &next_tokens, int64_t grad_accum) {
  torch::optim::Adam adam(lm->parameters(), torch::optim::AdamOptions(6e-4));
  const int64_t updates_per_epoch = static_cast<int64_t>(tokens.size()) / grad_accum;
  const int64_t warmup_updates = 2 * updates_per_epoch / 10;
  int64_t update = 0;
  for (size_t i = 0; i < tokens.size(); ++i) {
    auto loss = torch::cross_entropy_loss(lm->forward(tokens[i]), next_tokens[i]) / grad_accum;
    loss.backward();
    if ((i + 1) % grad_accum == 0) {
      for (auto &group : adam.param_groups())
        static_cast<torch::optim::AdamOptions &>(group.options())
            .lr(warmup_rate(update, warmup_updates, 6e-4));
      adam.step();
      adam.zero_grad();
      ++update;
    }
  }
}
