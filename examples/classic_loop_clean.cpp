// An ordinary MNIST-style training loop without gradient accumulation: every
// iteration resets the gradients, runs backward() on the mean loss, clips and
// steps. There is no accumulation window (N = 1), so none of the accum-*
// checks apply and gradlint must stay silent. The evaluation pass runs under
// NoGradGuard and never calls backward().
#include <torch/torch.h>

#include <cstdint>
#include <iostream>
#include <vector>

struct ConvNetImpl : torch::nn::Module {
  ConvNetImpl()
      : conv1(register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 8, 3)))),
        conv2(register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(8, 16, 3)))),
        fc(register_module("fc", torch::nn::Linear(16 * 5 * 5, 10))) {}

  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(conv1->forward(x)), 2);
    x = torch::max_pool2d(torch::relu(conv2->forward(x)), 2);
    return fc->forward(x.flatten(1));
  }

  torch::nn::Conv2d conv1;
  torch::nn::Conv2d conv2;
  torch::nn::Linear fc;
};
TORCH_MODULE(ConvNet);

struct Split {
  std::vector<torch::Tensor> images;
  std::vector<torch::Tensor> labels;
};

Split synthetic_split(int batches, int64_t batch_size) {
  Split split;
  for (int b = 0; b < batches; ++b) {
    split.images.push_back(torch::randn({batch_size, 1, 28, 28}));
    split.labels.push_back(torch::randint(0, 10, {batch_size}, torch::kLong));
  }
  return split;
}

double evaluate(ConvNet& net, const Split& split) {
  torch::NoGradGuard no_grad;
  net->eval();
  int64_t correct = 0;
  int64_t total = 0;
  for (size_t b = 0; b < split.images.size(); ++b) {
    torch::Tensor predicted = net->forward(split.images[b]).argmax(1);
    correct += predicted.eq(split.labels[b]).sum().item<int64_t>();
    total += split.labels[b].size(0);
  }
  return static_cast<double>(correct) / static_cast<double>(total);
}

int main() {
  torch::manual_seed(42);
  const Split train = synthetic_split(100, 64);
  const Split test = synthetic_split(20, 256);

  ConvNet net;
  torch::optim::SGD optimizer(net->parameters(),
                              torch::optim::SGDOptions(0.01).momentum(0.9).nesterov(true));
  torch::optim::StepLR scheduler(optimizer, /*step_size=*/2, /*gamma=*/0.5);

  for (int epoch = 0; epoch < 6; ++epoch) {
    net->train();
    double running = 0.0;
    for (size_t b = 0; b < train.images.size(); ++b) {
      optimizer.zero_grad();
      torch::Tensor output = net->forward(train.images[b]);
      torch::Tensor loss = torch::nn::functional::cross_entropy(output, train.labels[b]);
      loss.backward();
      torch::nn::utils::clip_grad_norm_(net->parameters(), 2.0);
      optimizer.step();
      running += loss.item<double>();

      if (b % 25 == 0) {
        std::cout << "epoch " << epoch << " batch " << b << "  loss " << loss.item<double>()
                  << std::endl;
      }
    }
    scheduler.step();
    std::cout << "epoch " << epoch << "  mean loss " << running / train.images.size()
              << "  test accuracy " << evaluate(net, test) << std::endl;
  }
  return 0;
}
