// Data-parallel MNIST over a c10d process group, after cpp/distributed/dist-mnist.cpp.
// Each rank trains on its shard; gradients are combined with allreduce.
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <iostream>
#include <vector>

#include "dist_env.hpp"

// Small convolutional classifier, same layout as the upstream example.
struct Model : torch::nn::Module {
  Model()
      : conv1(torch::nn::Conv2dOptions(1, 10, /*kernel_size=*/5)),
        conv2(torch::nn::Conv2dOptions(10, 20, /*kernel_size=*/5)),
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
    x = torch::relu(
        torch::max_pool2d(conv2_drop->forward(conv2->forward(x)), 2));
    x = x.view({-1, 320});
    x = torch::relu(fc1->forward(x));
    x = torch::dropout(x, /*p=*/0.5, /*training=*/is_training());
    x = fc2->forward(x);
    return torch::log_softmax(x, /*dim=*/1);
  }

  torch::nn::Conv2d conv1;
  torch::nn::Conv2d conv2;
  torch::nn::Dropout2d conv2_drop;
  torch::nn::Linear fc1;
  torch::nn::Linear fc2;
};

// Blocks until every outstanding collective finishes; aborts the job on error.
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

  // The global batch of 256 no longer fits per step on small nodes, so each rank
  // runs micro-batches and accumulates them before the update.
  auto total_batch_size = 256;
  const int accumulation_steps = 4;
  auto batch_size_per_proc = total_batch_size / numranks / accumulation_steps;
  auto data_loader = torch::data::make_data_loader(
      std::move(train_dataset), data_sampler, batch_size_per_proc);

  torch::manual_seed(0);

  auto model = std::make_shared<Model>();
  auto learning_rate = 1e-2;
  torch::optim::SGD optimizer(model->parameters(), learning_rate);

  size_t num_epochs = 10;
  int64_t micro_step = 0;

  for (size_t epoch = 1; epoch <= num_epochs; ++epoch) {
    size_t num_correct = 0;

    for (auto& batch : *data_loader) {
      auto ip = batch.data.to(torch::kF32);
      auto op = batch.target.squeeze().to(torch::kLong);

      auto prediction = model->forward(ip);
      auto loss = torch::nll_loss(prediction, op) / accumulation_steps;
      loss.backward();

      // Sum the gradients of all ranks after every backward pass.
      std::vector<c10::intrusive_ptr<c10d::Work>> works;
      for (auto& param : model->named_parameters()) {
        std::vector<torch::Tensor> tmp = {param.value().grad()};
        works.push_back(pg->allreduce(tmp));
      }
      waitWork(pg, works);

      ++micro_step;
      if (micro_step % accumulation_steps == 0) {
        for (auto& param : model->named_parameters()) {
          param.value().grad().data() = param.value().grad().data() / numranks;
        }
        optimizer.step();
        model->zero_grad();
      }

      auto guess = prediction.argmax(1);
      num_correct += torch::sum(guess.eq_(op)).item<int64_t>();
    }

    auto accuracy = 100.0 * num_correct / num_train_samples_per_proc;
    std::cout << "Accuracy in rank " << rank << " in epoch " << epoch << " - "
              << accuracy << std::endl;
  }

  if (rank == 0) {
    auto test_dataset =
        torch::data::datasets::MNIST(kDataRoot,
                                     torch::data::datasets::MNIST::Mode::kTest)
            .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
            .map(torch::data::transforms::Stack<>());
    auto num_test_samples = test_dataset.size().value();
    auto test_loader =
        torch::data::make_data_loader(std::move(test_dataset), num_test_samples);

    model->eval();
    torch::NoGradGuard no_grad;
    size_t num_correct = 0;
    for (auto& batch : *test_loader) {
      auto ip = batch.data.to(torch::kF32);
      auto op = batch.target.squeeze().to(torch::kLong);
      auto prediction = model->forward(ip);
      auto loss = torch::nll_loss(prediction, op);
      std::cout << "Test loss - " << loss.item<float>() << std::endl;
      num_correct += torch::sum(prediction.argmax(1).eq_(op)).item<int64_t>();
    }
    std::cout << "Test Accuracy - " << 100.0 * num_correct / num_test_samples
              << std::endl;
  }
  return 0;
}
