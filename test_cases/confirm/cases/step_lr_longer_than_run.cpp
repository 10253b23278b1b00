// A StepLR whose period (2000 calls) is far longer than the confirmation's
// three windows, stepped on every micro-batch instead of every window. In a
// run of 12 micro-batches it would never decay, in either loop; the run
// shrinks its period to 1 (listed) so that how often it advances shows.
// CONFIRM-VERDICT: accum-scheduler-per-micro-batch confirmed: learning rate at step 3
// CONFIRM-ASSUMED: accum-scheduler-per-micro-batch decay.step_size = 1
#include <torch/torch.h>

void train(torch::nn::Sequential net, const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys) {
  torch::optim::SGD sgd(net->parameters(), torch::optim::SGDOptions(0.05));
  torch::optim::StepLR decay(sgd, /*step_size=*/2000, /*gamma=*/0.5);
  const int accumulation = 4;
  for (size_t i = 0; i < xs.size(); ++i) {
    torch::Tensor loss = torch::mse_loss(net->forward(xs[i]), ys[i]) / accumulation;
    loss.backward();
    decay.step();
    if ((i + 1) % accumulation == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}
