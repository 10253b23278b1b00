// RUN: %check_gradlint %s
// `samples` grows by each batch's size and the step runs when it reaches a multiple
// of 256: 256 is a number of samples, not of micro-batches, so the accumulation count
// (and the division the loss needs) is unknown here; nothing is claimed.
#include <torch/torch.h>

template <typename Loader>
void train_epoch(torch::nn::Sequential &model, torch::optim::SGD &sgd, Loader &loader) {
  size_t samples = 0;
  for (auto &batch : loader) {
    torch::Tensor prediction = model->forward(batch.data);
    torch::Tensor loss = torch::nll_loss(torch::log_softmax(prediction, 1), batch.target);
    loss.backward();
    samples += static_cast<size_t>(batch.data.size(0));
    if (samples % 256 == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}

void run(torch::nn::Sequential &model, torch::optim::SGD &sgd,
         std::vector<torch::data::Example<>> &loader) {
  train_epoch(model, sgd, loader);
}
