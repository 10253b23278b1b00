// RUN: %check_gradlint %s
// A DQN whose replay counter is set to 0 in the constructor's body and then only
// grows (`memory_counter += 1`). Past the capacity, learn() resets, back-propagates
// and steps on every call from the game loop: no accumulation window, nothing to
// report. Setting the counter in the constructor is its initialisation, not a reset.
#include <torch/torch.h>

struct DQN {
  torch::nn::Sequential eval_net{torch::nn::Linear(9, 32), torch::nn::ReLU(),
                                 torch::nn::Linear(32, 9)};
  int MEMORY_CAPACITY = 2000, memory_counter, learn_step_counter;
  float GAMMA = 0.9f;

  DQN() {
    learn_step_counter = 0;
    memory_counter = 0;
  }

  void store_transition(const torch::Tensor &s) {
    int index = memory_counter % MEMORY_CAPACITY;
    (void)index;
    (void)s;
    memory_counter += 1;
  }

  void learn(torch::optim::Optimizer &optimizer) {
    learn_step_counter += 1;
    torch::Tensor q_eval = eval_net->forward(torch::rand({32, 9}));
    torch::Tensor q_target = q_eval.detach() * GAMMA;
    auto loss = torch::mse_loss(q_eval, q_target);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
};

void play(int games) {
  DQN dqn;
  torch::optim::Adam optimizer(dqn.eval_net->parameters(), torch::optim::AdamOptions(0.01));
  for (int game = 0; game < games; ++game) {
    while (true) {
      torch::Tensor s = torch::rand({9});
      dqn.store_transition(s);
      if (dqn.memory_counter > dqn.MEMORY_CAPACITY)
        dqn.learn(optimizer);
      if (s.sum().item<float>() > 8.5f)
        break;
    }
  }
}
