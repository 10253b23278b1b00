// RUN: %check_gradlint %s
// A two-channel recording of a fixed 720 frames is cut into chunks of at most
// `chunk` frames, and each chunk's mean loss is weighted by its share of the
// recording's samples (len * kChannels / kSamples); the shares sum to 1, so
// the accumulated gradient is the whole recording's mean, with no division by
// the chunk count.
#include <torch/torch.h>

void train(torch::nn::Conv1d encoder, torch::optim::Adam &adam, const std::vector<torch::Tensor> &recordings,
           const std::vector<torch::Tensor> &labels, int64_t chunk) {
  constexpr int64_t kFrames = 720, kChannels = 2;
  const double kSamples = static_cast<double>(kFrames * kChannels);
  for (size_t r = 0; r < recordings.size(); ++r) {
    adam.zero_grad();
    for (int64_t start = 0; start < kFrames; start += chunk) {
      const int64_t len = std::min(chunk, kFrames - start);
      torch::Tensor logits = encoder->forward(recordings[r].narrow(2, start, len));
      torch::Tensor chunk_loss =
          torch::binary_cross_entropy_with_logits(logits, labels[r].narrow(2, start, len)) *
          (static_cast<double>(len * kChannels) / kSamples);
      chunk_loss.backward();
    }
    adam.step();
  }
}
