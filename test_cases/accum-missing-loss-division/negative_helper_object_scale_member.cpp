// RUN: %check_gradlint %s
// An accumulation helper object scales the loss in its own member function: scale(loss)
// returns loss / steps. The file defines scale(), so it is followed (not read as an AMP
// scaler's scale()).
#include <torch/torch.h>

class Accumulation {
public:
  explicit Accumulation(int steps) : steps_(steps) {}
  torch::Tensor scale(const torch::Tensor &loss) const { return loss / steps_; }
  bool boundary(int64_t index) const { return (index + 1) % steps_ == 0; }

private:
  int steps_;
};

void fit(torch::nn::Conv2d conv, torch::optim::RMSprop &rms, const std::vector<torch::Tensor> &images) {
  Accumulation accumulation(8);
  for (int64_t b = 0; b < static_cast<int64_t>(images.size()); ++b) {
    auto loss = conv->forward(images[b]).abs().mean();
    accumulation.scale(loss).backward();
    if (accumulation.boundary(b)) {
      rms.step();
      rms.zero_grad();
    }
  }
}
