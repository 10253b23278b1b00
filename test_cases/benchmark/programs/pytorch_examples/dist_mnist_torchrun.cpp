// dist-mnist started by torchrun (RANK / WORLD_SIZE / MASTER_ADDR from the
// environment) on a Gloo group, accumulating gradients over micro-batches.
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <iostream>
#include <vector>

#include "dist_env.hpp"

struct Net : torch::nn::Module {
  Net()
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

void waitWork(const c10::intrusive_ptr<c10d::ProcessGroupGloo>& pg,
              std::vector<c10::intrusive_ptr<c10d::Work>>& works) {
  for (auto& work : works) {
    try {
      work->wait();
    } catch (const std::exception& ex) {
      std::cerr << "[rank " << pg->getRank() << "] " << ex.what() << std::endl;
      std::exit(EXIT_FAILURE);
    }
  }
}

int main(int argc, char* argv[]) {
  auto pg = dist_env::create_gloo_group();
  const int numranks = pg->getSize();
  const int rank = pg->getRank();

  auto train_dataset =
      torch::data::datasets::MNIST("../data")
          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>());
  auto data_sampler = torch::data::samplers::DistributedSequentialSampler(
      train_dataset.size().value(), numranks, rank, false);
  const size_t num_train_samples_per_proc = train_dataset.size().value() / numranks;
  auto data_loader = torch::data::make_data_loader(std::move(train_dataset), data_sampler,
                                                   /*batch_size=*/48);

  torch::manual_seed(0);
  auto model = std::make_shared<Net>();
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(1e-2).momentum(0.5));
  const int accum_steps = 6;

  for (size_t epoch = 1; epoch <= 10; ++epoch) {
    size_t num_correct = 0;
    size_t batch_idx = 0;

    for (auto& batch : *data_loader) {
      auto ip = batch.data.to(torch::kF32);
      auto op = batch.target.squeeze().to(torch::kLong);

      auto prediction = model->forward(ip);
      auto loss = torch::nll_loss(prediction, op);
      (loss / accum_steps).backward();

      if ((batch_idx + 1) % accum_steps == 0) {
        std::vector<c10::intrusive_ptr<c10d::Work>> works;
        for (auto& param : model->named_parameters()) {
          std::vector<torch::Tensor> tmp = {param.value().grad()};
          works.push_back(pg->allreduce(tmp));
        }
        waitWork(pg, works);
        for (auto& param : model->named_parameters()) {
          param.value().grad().div_(numranks);
        }
        optimizer.step();
        optimizer.zero_grad();
      }
      ++batch_idx;

      num_correct += torch::sum(prediction.argmax(1).eq_(op)).item<int64_t>();
    }

    std::cout << "Accuracy in rank " << rank << " in epoch " << epoch << " - "
              << 100.0 * num_correct / num_train_samples_per_proc << std::endl;
  }
  if (rank == 0) torch::save(model, "dist_mnist.pt");
  return 0;
}
