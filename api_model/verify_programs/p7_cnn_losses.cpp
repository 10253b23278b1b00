// CNN with Conv2d/MaxPool2d, loss modules, init, tensor ops.
#include <torch/torch.h>
#include <iostream>

struct ConvNetImpl : torch::nn::Module {
  ConvNetImpl() {
    conv1 = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 8, 3).padding(1)));
    pool = register_module("pool", torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(2)));
    fc = register_module("fc", torch::nn::Linear(8 * 14 * 14, 10));
    torch::nn::init::kaiming_normal_(conv1->weight);
    torch::nn::init::zeros_(fc->bias);
    torch::nn::init::xavier_uniform_(fc->weight);
  }
  torch::Tensor forward(const torch::Tensor& x) {
    auto h = pool->forward(torch::relu(conv1->forward(x)));
    return fc->forward(h.view({h.size(0), -1}));
  }
  torch::nn::Conv2d conv1{nullptr};
  torch::nn::MaxPool2d pool{nullptr};
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(ConvNet);

void train_cnn() {
  ConvNet net;
  torch::nn::CrossEntropyLoss ce(torch::nn::CrossEntropyLossOptions().reduction(torch::kSum).label_smoothing(0.1));
  torch::nn::BCEWithLogitsLoss bce;
  torch::nn::NLLLoss nll;
  torch::nn::L1Loss l1{torch::nn::L1LossOptions(torch::kMean)};
  torch::nn::SmoothL1Loss sl1;
  torch::nn::BCELoss bce2;
  torch::optim::SGD opt(net->parameters(), 0.01);
  auto x = torch::randn({2, 1, 28, 28});
  auto y = torch::randint(10, {2});
  auto logits = net->forward(x);
  auto loss = ce(logits, y) + nll(torch::log_softmax(logits, 1), y) +
              bce(logits, torch::zeros_like(logits)) + l1(logits, torch::ones_like(logits)) +
              sl1(logits, torch::zeros_like(logits)) + bce2(torch::sigmoid(logits), torch::full({2, 10}, 0.5));
  auto acc = logits.argmax(1).eq(y).to(torch::kFloat).mean();
  loss.backward();
  opt.step();
  opt.zero_grad();
  auto s = torch::stack({loss.detach(), acc});
  auto c = torch::cat({s, s}, 0);
  std::cout << c << " " << loss.item().toDouble() << '\n';
  auto gn = torch::nn::utils::clip_grad_norm_({net->fc->weight, net->fc->bias}, 2.0);
  auto gn2 = torch::nn::utils::clip_grad_norm_(net->conv1->weight, 2.0, 2.0);
  torch::nn::utils::clip_grad_value_({net->fc->weight}, 1.0);
  torch::nn::utils::clip_grad_value_(net->fc->bias, 1.0);
  std::cout << gn + gn2 << '\n';
}

int main() { train_cnn(); }
