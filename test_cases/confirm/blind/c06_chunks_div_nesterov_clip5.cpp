// TRUTH: correct: chunked micro-batches via batch.chunk(n_micro), loss.div(n_micro) before backward, clip_grad_norm_(5.0) once after the inner loop, then step/zero_grad; no numerical effect expected.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct ConvNetImpl : torch::nn::Module {
  ConvNetImpl()
      : conv(register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 8, 3).padding(1)))),
        fc(register_module("fc", torch::nn::Linear(8 * 8 * 8, 10))) {}
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(conv->forward(x));
    return fc->forward(x.flatten(1));
  }
  torch::nn::Conv2d conv;
  torch::nn::Linear fc;
};
TORCH_MODULE(ConvNet);

int main() {
  ConvNet model;
  torch::optim::SGD sgd(model->parameters(),
                        torch::optim::SGDOptions(0.01).momentum(0.9).nesterov(true));
  const int n_micro = 2;
  for (int it = 0; it < 200; ++it) {
    auto images = torch::randn({32, 1, 8, 8});
    auto labels = torch::randint(0, 10, {32});
    auto image_chunks = images.chunk(n_micro);
    auto label_chunks = labels.chunk(n_micro);

    sgd.zero_grad();
    for (int m = 0; m < n_micro; ++m) {
      auto logits = model->forward(image_chunks[m]);
      auto loss = torch::nn::functional::cross_entropy(logits, label_chunks[m]).div(n_micro);
      loss.backward();
    }
    torch::nn::utils::clip_grad_norm_(model->parameters(), 5.0);
    sgd.step();
    if (it % 50 == 0) std::cout << "it " << it << std::endl;
  }
}
