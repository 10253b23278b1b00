// RUN: %check_gradlint %s
// The guard also fires at the epoch's last batch, so the trailing partial window is stepped
// (with the loss still divided by N, a smaller update, but no micro-batch is lost or carried).
#include <torch/torch.h>

void fit(torch::nn::Linear &model, const std::vector<torch::Tensor> &inputs,
         const std::vector<torch::Tensor> &labels, int epochs) {
  torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(1e-3));
  const size_t accum = 4;
  const size_t n_batches = inputs.size();
  for (int epoch = 0; epoch < epochs; ++epoch) {
    for (size_t b = 0; b < n_batches; ++b) {
      auto loss = torch::mse_loss(model->forward(inputs[b]), labels[b]) / static_cast<double>(accum);
      loss.backward();
      const bool last = b + 1 == n_batches;
      if ((b + 1) % accum == 0 || last) {
        adam.step();
        adam.zero_grad();
      }
    }
  }
}
