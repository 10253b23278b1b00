// RUN: %check_gradlint %s
// The world count reaches a Gloo group built with make_intrusive; the group SUMs the gradients,
// so dividing each micro-batch's loss by N * W gives the global mean once.
#include <c10d/ProcessGroupGloo.hpp>
#include <c10d/TCPStore.hpp>
#include <torch/torch.h>

struct Launch {
  int rank = 0;
  int world = 1;
};

class Reducer {
public:
  Reducer(const c10::intrusive_ptr<c10d::Store> &store, int rank, int world)
      : pg_(c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world)) {}
  void sum(std::vector<torch::Tensor> &tensors) { pg_->allreduce(tensors)->wait(); }

private:
  c10::intrusive_ptr<c10d::ProcessGroupGloo> pg_;
};

void train(const Launch &launch, const c10::intrusive_ptr<c10d::Store> &store,
           torch::nn::Linear model, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  Reducer reducer(store, launch.rank, launch.world);
  torch::optim::Adam adam(model->parameters());
  const int accum = 8;
  for (size_t i = 0; i < xs.size(); ++i) {
    auto loss = torch::mse_loss(model->forward(xs[i]), ys[i]) / (accum * launch.world);
    loss.backward();
    if ((i + 1) % accum == 0) {
      std::vector<torch::Tensor> grads;
      for (auto &p : model->parameters())
        grads.push_back(p.grad());
      reducer.sum(grads);
      adam.step();
      adam.zero_grad();
    }
  }
}
