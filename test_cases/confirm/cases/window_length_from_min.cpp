// Windows cut from a list of batches with `std::min`, the last one possibly
// short; each micro-batch's loss is divided by its window's length. The
// zero_grad() sits inside the window, so only the window's last micro-batch
// reaches step(). The batch count is a parameter: the run takes it as at
// least the window's end (the first windows of a longer list), so every
// window holds N micro-batches and the division is by N.
// CONFIRM-VERDICT: accum-misplaced-zero-grad confirmed
// CONFIRM-ASSUMED: accum-misplaced-zero-grad `batch_count` (line 26) = at least `first + group`
#include <torch/torch.h>

struct Batch {
  torch::Tensor input, target;
};

struct Regressor : torch::nn::Module {
  Regressor() { fc = register_module("fc", torch::nn::Linear(8, 4)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

void fit(std::shared_ptr<Regressor> model, const Batch *batches, int batch_count) {
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.1));
  const int group = 4;
  for (int round = 0; round < 2; ++round) {
    for (int first = 0; first < batch_count; first += group) {
      const int last = std::min(first + group, batch_count);
      const double length = static_cast<double>(last - first);
      for (int b = first; b < last; ++b) {
        sgd.zero_grad();
        torch::Tensor loss = torch::mse_loss(model->forward(batches[b].input), batches[b].target);
        (loss / length).backward();
      }
      sgd.step();
    }
  }
}
