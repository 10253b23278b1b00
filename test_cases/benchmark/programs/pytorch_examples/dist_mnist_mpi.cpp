// dist-mnist (cpp/distributed/dist-mnist.cpp) where the averaging over ranks is
// folded into the loss scale: each rank's loss is pre-divided by the number of
// micro-batches and ranks, so a plain sum over the ranks is already the mean.
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <iostream>
#include <vector>

#include "dist_env.hpp"

struct Model : torch::nn::Module {
  Model() : fc1(784, 256), fc2(256, 128), fc3(128, 10) {
    register_module("fc1", fc1);
    register_module("fc2", fc2);
    register_module("fc3", fc3);
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(fc1->forward(x.view({x.size(0), 784})));
    x = torch::dropout(x, 0.2, is_training());
    x = torch::relu(fc2->forward(x));
    return torch::log_softmax(fc3->forward(x), 1);
  }

  torch::nn::Linear fc1, fc2, fc3;
};

// Plain SUM over the ranks; the loss scale already contains 1/numranks.
void sum_gradients(Model& model, const c10::intrusive_ptr<c10d::ProcessGroupGloo>& pg) {
  std::vector<c10::intrusive_ptr<c10d::Work>> works;
  for (auto& param : model.parameters()) {
    std::vector<torch::Tensor> tmp = {param.grad()};
    works.push_back(pg->allreduce(tmp));
  }
  for (auto& work : works) work->wait();
}

int main(int argc, char* argv[]) {
  auto pg = dist_env::create_gloo_group();
  const auto numranks = pg->getSize();
  const auto rank = pg->getRank();

  auto train_dataset =
      torch::data::datasets::MNIST("../data")
          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>());
  auto data_sampler = torch::data::samplers::DistributedRandomSampler(
      train_dataset.size().value(), numranks, rank, false);
  auto num_train_samples_per_proc = train_dataset.size().value() / numranks;
  auto data_loader =
      torch::data::make_data_loader(std::move(train_dataset), data_sampler, /*batch_size=*/32);

  torch::manual_seed(0);
  auto model = std::make_shared<Model>();
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));

  const int micro_batches = 4;
  const double loss_scale = 1.0 / (micro_batches * numranks);
  int64_t seen = 0;

  for (size_t epoch = 1; epoch <= 10; ++epoch) {
    size_t num_correct = 0;
    for (auto& batch : *data_loader) {
      auto ip = batch.data.to(torch::kF32);
      auto op = batch.target.squeeze().to(torch::kLong);

      auto prediction = model->forward(ip);
      auto loss = torch::nll_loss(prediction, op);
      (loss * loss_scale).backward();
      num_correct += torch::sum(prediction.argmax(1).eq_(op)).item<int64_t>();

      if (++seen % micro_batches == 0) {
        sum_gradients(*model, pg);
        optimizer.step();
        optimizer.zero_grad();
      }
    }
    std::cout << "Accuracy in rank " << rank << " in epoch " << epoch << " - "
              << 100.0 * num_correct / num_train_samples_per_proc << std::endl;
  }

  if (rank == 0) {
    auto test_dataset =
        torch::data::datasets::MNIST("../data", torch::data::datasets::MNIST::Mode::kTest)
            .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
            .map(torch::data::transforms::Stack<>());
    const auto num_test_samples = test_dataset.size().value();
    auto test_loader = torch::data::make_data_loader(std::move(test_dataset), 1000);
    model->eval();
    torch::NoGradGuard no_grad;
    size_t num_correct = 0;
    for (auto& batch : *test_loader) {
      auto prediction = model->forward(batch.data.to(torch::kF32));
      num_correct += torch::sum(prediction.argmax(1).eq_(batch.target.to(torch::kLong)))
                         .item<int64_t>();
    }
    std::cout << "Test Accuracy - " << 100.0 * num_correct / num_test_samples << std::endl;
  }
  return 0;
}
