// TRUTH: correct: zero_grad() guarded by the window-start condition (i % accum == 0) before the first backward, torch::div(loss, accum) before backward, step at (i+1) % accum == 0; no numerical effect expected (RMSprop with momentum).
#include <torch/torch.h>

#include <iostream>
#include <vector>

int main() {
  torch::manual_seed(3);
  torch::nn::GRU rnn(torch::nn::GRUOptions(6, 12).batch_first(true));
  torch::nn::Linear readout(12, 1);
  std::vector<torch::Tensor> params = rnn->parameters();
  auto rp = readout->parameters();
  params.insert(params.end(), rp.begin(), rp.end());
  torch::optim::RMSprop opt(params, torch::optim::RMSpropOptions(5e-4).momentum(0.9));

  std::vector<torch::Tensor> seqs, tgts;
  for (int i = 0; i < 30; ++i) {
    seqs.push_back(torch::randn({4, 10, 6}));
    tgts.push_back(torch::randn({4, 1}));
  }

  const int64_t accum = 3;
  for (int64_t i = 0; i < static_cast<int64_t>(seqs.size()); ++i) {
    if (i % accum == 0) opt.zero_grad();
    auto out = std::get<0>(rnn->forward(seqs[i]));
    auto pred = readout->forward(out.select(1, -1));
    auto loss = torch::div(torch::mse_loss(pred, tgts[i]), accum);
    loss.backward();
    if ((i + 1) % accum == 0) {
      opt.step();
    }
  }
  std::cout << "ok\n";
  return 0;
}
