// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-misplaced-zero-grad confirmed: last micro-batch's gradient
// Actor-critic trainer: the critic steps and resets correctly; the actor's reset is
// guarded by the boundary but placed before the actor's backward(), after the
// critic's step(): it discards the actor's N - 1 earlier micro-batches.
#include <torch/torch.h>

class ActorCritic {
public:
  ActorCritic(torch::nn::Linear actor, torch::nn::Linear critic, int accum)
      : actor_(actor), critic_(critic),
        actor_opt_(actor->parameters(), torch::optim::AdamOptions(3e-4)),
        critic_opt_(critic->parameters(), torch::optim::AdamOptions(1e-3)), accum_(accum) {}

  void update(const std::vector<torch::Tensor> &states, const std::vector<torch::Tensor> &returns) {
    for (size_t i = 0; i < states.size(); ++i) {
      auto state = states[i];
      auto value = critic_->forward(state);
      auto critic_loss = torch::mse_loss(value, returns[i]) / accum_;
      critic_loss.backward();
      if ((i + 1) % accum_ == 0) {
        critic_opt_.step();
        critic_opt_.zero_grad();
      }

      state = states[i].detach();
      if ((i + 1) % accum_ == 0) {
        actor_opt_.zero_grad();
        // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: gradient reset runs in the boundary branch before step() at line 34; {{.*}} [accum-misplaced-zero-grad]
      }
      auto actor_loss = -(actor_->forward(state) * value.detach()).mean() / accum_;
      actor_loss.backward();
      if ((i + 1) % accum_ == 0)
        actor_opt_.step();
    }
  }

private:
  torch::nn::Linear actor_, critic_;
  torch::optim::Adam actor_opt_, critic_opt_;
  int accum_;
};
