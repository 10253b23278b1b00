// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-loss-division not-confirmed: Adam normalises
// Actor-critic update: the critic's loss is divided by its accumulation steps, the
// actor's loss (its own window of actor_accum micro-batches) is not.
#include <torch/torch.h>

void update(torch::nn::Linear actor, torch::nn::Linear critic, torch::optim::Adam &actor_opt,
            torch::optim::Adam &critic_opt, const std::vector<torch::Tensor> &states,
            const std::vector<torch::Tensor> &returns) {
  const int critic_accum = 2;
  const int actor_accum = 4;
  for (size_t i = 0; i < states.size(); ++i) {
    auto state = states[i];
    auto value = critic->forward(state);
    auto critic_loss = torch::mse_loss(value, returns[i]) / critic_accum;
    critic_loss.backward();
    if ((i + 1) % critic_accum == 0) {
      critic_opt.step();
      critic_opt.zero_grad();
    }
    state = states[i].detach();
    auto actor_loss = -(actor->forward(state) * value.detach()).mean();
    actor_loss.backward();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: loss passed to backward() is not divided by the accumulation steps {{.*}}actor_accum{{.*}} [accum-missing-loss-division]
    // CHECK-FIXES: {{^}}    auto actor_loss = -(actor->forward(state) * value.detach()).mean();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    (actor_loss / actor_accum).backward();{{$}}
    if ((i + 1) % actor_accum == 0) {
      actor_opt.step();
      actor_opt.zero_grad();
    }
  }
}
