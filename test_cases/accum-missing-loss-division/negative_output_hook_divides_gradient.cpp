// RUN: %check_gradlint %s
// The loss is not divided, but the network's output carries a gradient hook
// registered in a helper that returns the incoming gradient divided by the
// window's micro-batch count: every backward() sends 1/N of the gradient into
// the parameters, the same as dividing the loss.
#include <torch/torch.h>

struct Scorer : torch::nn::Module {
  Scorer() { head = register_module("head", torch::nn::Linear(12, 1)); }
  torch::Tensor forward(const torch::Tensor &x) { return head->forward(x); }
  torch::nn::Linear head{nullptr};
};

torch::Tensor scaled_output(Scorer &scorer, const torch::Tensor &x, int micro_batches) {
  torch::Tensor out = scorer.forward(x);
  const float share = static_cast<float>(micro_batches);
  out.register_hook([share](torch::Tensor incoming) { return incoming.div(share); });
  return out;
}

void fit(Scorer &scorer, torch::optim::Adagrad &adagrad, const std::vector<torch::Tensor> &rows,
         const std::vector<torch::Tensor> &scores, int micro_batches) {
  int pending = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    torch::Tensor predicted = scaled_output(scorer, rows[r], micro_batches);
    torch::nn::functional::smooth_l1_loss(predicted, scores[r]).backward();
    if (++pending == micro_batches) {
      adagrad.step();
      adagrad.zero_grad();
      pending = 0;
    }
  }
}
