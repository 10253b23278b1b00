// A detection loss object defined elsewhere returns {loss, positives} per head;
// the loop sums the two heads' losses and never divides by the window of 2.
// The loss object's results are not traced: their sum is the micro-batch's
// stand-in loss.
// CONFIRM-VERDICT: accum-missing-loss-division confirmed
// CONFIRM-FIGURE: accum-missing-loss-division grad_norm_ratio == N
#include <torch/torch.h>

struct HeadLoss {
  std::vector<torch::Tensor> forward(const torch::Tensor &prediction, const torch::Tensor &target);
};

void fit(torch::nn::Sequential detector, HeadLoss criterion, const std::vector<torch::Tensor> &images,
         const std::vector<torch::Tensor> &boxes) {
  torch::optim::SGD sgd(detector->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  const int window = 2;
  for (size_t i = 0; i < images.size(); ++i) {
    auto out = detector->forward(images[i]);
    std::vector<torch::Tensor> small = criterion.forward(out, boxes[i]);
    std::vector<torch::Tensor> large = criterion.forward(out * 2, boxes[i]);
    auto loss = small[0] + large[0];
    loss.backward();
    if ((i + 1) % window == 0) {
      sgd.step();
      sgd.zero_grad();
    }
  }
}
