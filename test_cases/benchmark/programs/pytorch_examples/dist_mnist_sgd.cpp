// dist-mnist, launched with torchrun-style environment variables.
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <string>
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

void waitWork(c10::intrusive_ptr<c10d::ProcessGroupGloo> pg,
              std::vector<c10::intrusive_ptr<c10d::Work>> works) {
  for (auto& work : works) {
    try {
      work->wait();
    } catch (const std::exception& ex) {
      std::cerr << "Exception received: " << ex.what() << std::endl;
      std::exit(EXIT_FAILURE);
    }
  }
}

int main(int argc, char* argv[]) {
  const int world_size = std::stoi(std::getenv("WORLD_SIZE"));
  const int rank = std::stoi(std::getenv("RANK"));
  auto pg = dist_env::create_gloo_group();

  const char* kDataRoot = "../data";
  auto train_dataset =
      torch::data::datasets::MNIST(kDataRoot)
          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>());
  auto data_sampler = torch::data::samplers::DistributedRandomSampler(
      train_dataset.size().value(), world_size, rank, false);
  auto num_train_samples_per_proc = train_dataset.size().value() / world_size;

  const int grad_accum = 2;
  auto batch_size_per_proc = 64 / world_size / grad_accum;
  auto data_loader = torch::data::make_data_loader(
      std::move(train_dataset), data_sampler, batch_size_per_proc);

  torch::manual_seed(0);
  auto model = std::make_shared<Model>();
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(1e-2));

  int64_t global_step = 0;
  for (size_t epoch = 1; epoch <= 10; ++epoch) {
    size_t num_correct = 0;

    for (auto& batch : *data_loader) {
      auto ip = batch.data.to(torch::kF32);
      auto op = batch.target.squeeze().to(torch::kLong);

      auto prediction = model->forward(ip);
      // Every rank contributes 1/(grad_accum * world_size) of the global batch.
      auto loss = torch::nll_loss(prediction, op) / (grad_accum * world_size);
      loss.backward();

      num_correct += torch::sum(prediction.argmax(1).eq_(op)).item<int64_t>();

      if (++global_step % grad_accum != 0) {
        continue;
      }

      std::vector<c10::intrusive_ptr<c10d::Work>> works;
      for (auto& param : model->named_parameters()) {
        std::vector<torch::Tensor> tmp = {param.value().grad()};
        works.push_back(pg->allreduce(tmp));
      }
      waitWork(pg, works);
      for (auto& param : model->named_parameters()) {
        param.value().grad().data() = param.value().grad().data() / world_size;
      }

      optimizer.step();
      model->zero_grad();
    }

    std::cout << "Accuracy in rank " << rank << " in epoch " << epoch << " - "
              << 100.0 * num_correct / num_train_samples_per_proc << std::endl;
  }

  if (rank == 0) {
    auto test_dataset =
        torch::data::datasets::MNIST(kDataRoot,
                                     torch::data::datasets::MNIST::Mode::kTest)
            .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
            .map(torch::data::transforms::Stack<>());
    auto num_test_samples = test_dataset.size().value();
    auto test_loader = torch::data::make_data_loader(std::move(test_dataset), 1000);
    model->eval();
    torch::NoGradGuard no_grad;
    size_t num_correct = 0;
    for (auto& batch : *test_loader) {
      auto prediction = model->forward(batch.data.to(torch::kF32));
      auto op = batch.target.squeeze().to(torch::kLong);
      num_correct += torch::sum(prediction.argmax(1).eq_(op)).item<int64_t>();
    }
    std::cout << "Test Accuracy - " << 100.0 * num_correct / num_test_samples
              << std::endl;
  }
  return 0;
}
