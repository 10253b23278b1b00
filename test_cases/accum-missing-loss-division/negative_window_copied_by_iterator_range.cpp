// RUN: %check_gradlint %s
// Each update copies its micro-batches out of the epoch with an iterator
// range of `take` elements: `accum` of them, or the remainder for the last
// window. The inner loop over that copy runs `take` times, and the loss is
// divided by accum, the window's size on all but a short last window.
#include <torch/torch.h>

void epoch(torch::nn::Linear head, torch::optim::SGD &sgd, const std::vector<torch::Tensor> &inputs,
           int64_t accum) {
  const int64_t total = static_cast<int64_t>(inputs.size());
  for (int64_t begin = 0; begin < total; begin += accum) {
    const int64_t take = begin + accum <= total ? accum : total - begin;
    std::vector<torch::Tensor> window(inputs.begin() + begin, inputs.begin() + begin + take);
    for (const torch::Tensor &x : window) {
      torch::Tensor loss = head->forward(x).abs().mean() / accum;
      loss.backward();
    }
    sgd.step();
    sgd.zero_grad();
  }
}
