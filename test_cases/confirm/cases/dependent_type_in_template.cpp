// A loop in a member template of a class template whose locals have a
// dependent type (`real_t previous_loss(-1.0)` is a ParenListExpr, an
// expression without a type): translating it for the confirmation crashed the
// analysis (benchmark: iganets_iganet/iganet.cpp). The member template is read
// in its one instantiation, where the loader's element is a tensor.
// CONFIRM-VERDICT: accum-missing-loss-division confirmed: 4\.000x the large-batch gradient
#include <torch/torch.h>
#include <vector>

template <typename real_t = float>
struct Trainer {
  torch::nn::Linear net{8, 1};
  int accum_batches = 4;

  template <typename Loader>
  void train(Loader &loader) {
    torch::optim::SGD opt(net->parameters(), torch::optim::SGDOptions(0.1));
    real_t previous_loss(-1.0);
    int pending = 0;
    for (auto &batch : loader) {
      real_t running(0);
      auto loss = net->forward(batch).pow(2).mean();
      loss.backward();
      running += loss.template item<real_t>();
      if (++pending == accum_batches) {
        opt.step();
        opt.zero_grad();
        pending = 0;
      }
    }
    previous_loss = 0;
  }
};

int main() {
  std::vector<torch::Tensor> batches(8, torch::randn({4, 8}));
  Trainer<> trainer;
  trainer.train(batches);
}
