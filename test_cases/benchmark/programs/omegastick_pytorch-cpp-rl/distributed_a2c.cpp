// Synchronous multi-learner A2C on cpprl: each learner process owns a group of
// environments, evaluates its rollout in `num_chunks` time chunks, and the
// learners combine their gradients with one coalesced Gloo all-reduce per update.
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <vector>

#include "cpprl_lite.hpp"

namespace cpprl {

class Communicator {
 public:
  explicit Communicator(c10::intrusive_ptr<c10d::ProcessGroupGloo> pg) : pg(std::move(pg)) {}
  // Mean of the gradients over all learners.
  void allreduce_gradients(const std::vector<torch::Tensor>& params) {
    std::vector<torch::Tensor> grads;
    for (auto& p : params) grads.push_back(p.grad());
    pg->allreduce_coalesced(grads)->wait();
    for (auto& g : grads) g.div_(pg->getSize());
  }
  int rank() const { return pg->getRank(); }

 private:
  c10::intrusive_ptr<c10d::ProcessGroupGloo> pg;
};

class DistributedA2C {
 public:
  DistributedA2C(Policy& policy, Communicator& comm, float value_loss_coef, float entropy_coef, float lr,
                 float max_grad_norm, int num_chunks)
      : policy(policy), comm(comm), value_loss_coef(value_loss_coef), entropy_coef(entropy_coef),
        max_grad_norm(max_grad_norm), num_chunks(num_chunks),
        optimizer(policy->parameters(), torch::optim::RMSpropOptions(lr).eps(1e-5).alpha(0.99)) {}

  std::vector<UpdateDatum> update(RolloutStorage& rollouts) {
    const int64_t num_steps = rollouts.get_rewards().size(0);
    auto obs = rollouts.get_observations().slice(0, 0, num_steps).chunk(num_chunks, 0);
    auto acts = rollouts.get_actions().chunk(num_chunks, 0);
    auto rets = rollouts.get_returns().slice(0, 0, num_steps).chunk(num_chunks, 0);
    const int64_t n = static_cast<int64_t>(obs.size());

    optimizer.zero_grad();
    float value_loss_sum = 0, action_loss_sum = 0;
    for (int64_t c = 0; c < n; ++c) {
      auto result = policy->evaluate_actions(obs[c].reshape({-1, obs[c].size(-1)}), torch::Tensor(), torch::Tensor(),
                                             acts[c].reshape({-1, 1}));
      auto advantages = rets[c].reshape({-1, 1}) - result[0];
      auto value_loss = advantages.pow(2).mean();
      auto action_loss = -(advantages.detach() * result[1]).mean();
      auto loss = value_loss * value_loss_coef + action_loss - result[2] * entropy_coef;
      (loss / static_cast<double>(n)).backward();
      value_loss_sum += value_loss.item<float>();
      action_loss_sum += action_loss.item<float>();
    }
    torch::nn::utils::clip_grad_norm_(policy->parameters(), max_grad_norm);
    comm.allreduce_gradients(policy->parameters());
    optimizer.step();

    return {{"Value loss", value_loss_sum / n}, {"Action loss", action_loss_sum / n}};
  }

 private:
  Policy& policy;
  Communicator& comm;
  float value_loss_coef, entropy_coef, max_grad_norm;
  int num_chunks;
  torch::optim::RMSprop optimizer;
};

}  // namespace cpprl

int main() {
  const int rank = std::atoi(std::getenv("RANK") ? std::getenv("RANK") : "0");
  const int world = std::atoi(std::getenv("WORLD_SIZE") ? std::getenv("WORLD_SIZE") : "1");
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/cpprl_a2c_store", world);
  auto options = c10d::ProcessGroupGloo::Options::create();
  options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  cpprl::Communicator comm(c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world, options));

  torch::manual_seed(5);
  cpprl::Policy policy(8, 4);
  cpprl::RolloutStorage storage(64, 16, 8);
  cpprl::DistributedA2C a2c(policy, comm, 0.5f, 0.01f, 7e-4f, 0.5f, 4);
  for (int update = 0; update < 20000; ++update) {
    auto info = a2c.update(storage);
    if (comm.rank() == 0 && update % 100 == 0) std::cout << update << " " << info[0].value << std::endl;
  }
}
