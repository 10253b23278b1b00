// dist-mnist with a step learning-rate schedule and coalesced gradient reduction.
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <iostream>
#include <vector>

#include "dist_env.hpp"

struct Model : torch::nn::Module {
  Model()
      : conv1(torch::nn::Conv2dOptions(1, 10, 5)),
        conv2(torch::nn::Conv2dOptions(10, 20, 5)),
        fc1(320, 50),
        fc2(50, 10) {
    register_module("conv1", conv1);
    register_module("conv2", conv2);
    register_module("conv2_drop", conv2_drop);
    register_module("fc1", fc1);
    register_module("fc2", fc2);
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(torch::max_pool2d(conv1->forward(x), 2));
    x = torch::relu(torch::max_pool2d(conv2_drop->forward(conv2->forward(x)), 2));
    x = x.view({-1, 320});
    x = torch::relu(fc1->forward(x));
    x = torch::dropout(x, 0.5, is_training());
    return torch::log_softmax(fc2->forward(x), 1);
  }

  torch::nn::Conv2d conv1;
  torch::nn::Conv2d conv2;
  torch::nn::Dropout2d conv2_drop;
  torch::nn::Linear fc1;
  torch::nn::Linear fc2;
};

int main(int argc, char* argv[]) {
  auto pg = dist_env::create_gloo_group();
  auto numranks = pg->getSize();
  auto rank = pg->getRank();

  const char* kDataRoot = "../data";
  auto train_dataset =
      torch::data::datasets::MNIST(kDataRoot)
          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>());
  auto data_sampler = torch::data::samplers::DistributedRandomSampler(
      train_dataset.size().value(), numranks, rank, false);
  auto num_train_samples_per_proc = train_dataset.size().value() / numranks;
  auto data_loader = torch::data::make_data_loader(
      std::move(train_dataset), data_sampler, /*batch_size=*/32);

  torch::manual_seed(0);
  auto model = std::make_shared<Model>();
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(5e-2).momentum(0.9));
  // Decay the rate by 10x every 2000 updates.
  torch::optim::StepLR scheduler(optimizer, /*step_size=*/2000, /*gamma=*/0.1);

  constexpr int kAccumulationSteps = 4;
  int64_t micro_step = 0;

  auto sync_gradients = [&]() {
    std::vector<torch::Tensor> grads;
    for (auto& param : model->parameters()) {
      if (param.grad().defined()) grads.push_back(param.grad());
    }
    pg->allreduce_coalesced(grads)->wait();
    for (auto& g : grads) g.div_(numranks);
  };

  for (size_t epoch = 1; epoch <= 10; ++epoch) {
    size_t num_correct = 0;

    for (auto& batch : *data_loader) {
      auto ip = batch.data.to(torch::kF32);
      auto op = batch.target.squeeze().to(torch::kLong);

      auto prediction = model->forward(ip);
      auto loss = torch::nll_loss(prediction, op);
      (loss / kAccumulationSteps).backward();
      scheduler.step();

      if (++micro_step % kAccumulationSteps == 0) {
        sync_gradients();
        optimizer.step();
        optimizer.zero_grad();
      }

      num_correct += torch::sum(prediction.argmax(1).eq_(op)).item<int64_t>();
    }

    std::cout << "Accuracy in rank " << rank << " in epoch " << epoch << " - "
              << 100.0 * num_correct / num_train_samples_per_proc << " lr "
              << optimizer.param_groups()[0].options().get_lr() << std::endl;
  }
  return 0;
}
