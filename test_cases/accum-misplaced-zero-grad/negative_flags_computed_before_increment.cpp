// RUN: %check_gradlint %s
// Both window flags are computed at the top of the micro-batch, before the counter is
// advanced; the step tests its flag after `++done`. The flags read the counter where they are
// declared, so the reset holds at the window's first micro-batch and the step at its last.
#include <torch/torch.h>

void train(torch::nn::GRU rnn, torch::nn::Linear out, const std::vector<torch::Tensor> &seqs,
           int accum) {
  std::vector<torch::Tensor> params = rnn->parameters();
  for (auto &p : out->parameters())
    params.push_back(p);
  torch::optim::Adam adam(params, torch::optim::AdamOptions(5e-4));
  int64_t done = 0;
  for (const auto &seq : seqs) {
    const bool opens_window = done % accum == 0;
    const bool closes_window = (done + 1) % accum == 0;
    if (opens_window)
      adam.zero_grad();
    auto hidden = std::get<0>(rnn->forward(seq));
    auto loss = out->forward(hidden).pow(2).mean() / accum;
    loss.backward();
    ++done;
    if (closes_window)
      adam.step();
  }
}
