// A policy-gradient learner: a rollout runs the policy under no_grad for its
// samples before the update loop; the update loop accumulates 3 minibatches
// without dividing their losses. The rollout's forward passes read no
// micro-batch of the update, so the run still has 3 full windows.
// CONFIRM-VERDICT: accum-missing-loss-division confirmed
// CONFIRM-FIGURE: accum-missing-loss-division grad_norm_ratio == N
#include <torch/torch.h>

struct Rollout {
  torch::Tensor observations;
  torch::Tensor returns;
};

Rollout collect(torch::nn::Sequential &policy, torch::Tensor start, int64_t horizon) {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> seen;
  torch::Tensor state = start;
  for (int64_t t = 0; t < horizon; ++t) {
    seen.push_back(state);
    state = torch::tanh(policy->forward(state));
  }
  return {torch::stack(seen), torch::ones({horizon})};
}

void learn(torch::nn::Sequential policy, torch::Tensor start, int64_t horizon, int64_t minibatch) {
  torch::optim::SGD sgd(policy->parameters(), torch::optim::SGDOptions(0.05));
  const int micro_batches_per_update = 3;
  Rollout rollout = collect(policy, start, horizon);
  int seen = 0;
  for (int64_t begin = 0; begin < horizon; begin += minibatch) {
    auto obs = rollout.observations.slice(0, begin, begin + minibatch);
    auto loss = policy->forward(obs).pow(2).mean();
    loss.backward();
    if (++seen % micro_batches_per_update == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}
