// RUN: %check_gradlint %s
// CONFIRM-VERDICT: accum-missing-grad-reset confirmed: applied gradient at step 3: [0-9.]+x
// Early `continue` until the window is full, then an unguarded step(): the loop has an
// accumulation window but no reset anywhere, so the gradients of every window add up.
#include <torch/torch.h>

void train_autoencoder(torch::nn::Sequential autoencoder, std::vector<torch::Tensor> images) {
  torch::optim::SGD optim(autoencoder->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));
  int grad_accum_steps = 2;
  for (int step = 0; step < static_cast<int>(images.size()); ++step) {
    auto recon = autoencoder->forward(images[step]);
    auto loss = torch::mse_loss(recon, images[step]) / grad_accum_steps;
    loss.backward();
    if ((step + 1) % grad_accum_steps != 0)
      continue;
    optim.step();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: gradients are never reset {{.*}} [accum-missing-grad-reset]
    // CHECK-FIXES: {{^}}    optim.step();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    optim.zero_grad();{{$}}
  }
}
