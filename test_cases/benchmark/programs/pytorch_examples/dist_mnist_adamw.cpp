// dist-mnist (cpp/distributed/dist-mnist.cpp) switched to AdamW with weight
// decay, accumulating micro-batches per rank before each averaged update.
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

struct TrainConfig {
  int accumulation_steps = 8;
  double lr = 1e-3;
  double weight_decay = 0.05;
  size_t epochs = 10;
};

torch::optim::AdamWOptions make_optimizer_options(const TrainConfig& cfg) {
  // Decay is applied once per optimizer step, spread it over the micro-batches.
  return torch::optim::AdamWOptions(cfg.lr).weight_decay(cfg.weight_decay / cfg.accumulation_steps);
}

void average_gradients(Model& model, const c10::intrusive_ptr<c10d::ProcessGroupGloo>& pg) {
  std::vector<c10::intrusive_ptr<c10d::Work>> works;
  for (auto& param : model.named_parameters()) {
    std::vector<torch::Tensor> tmp = {param.value().grad()};
    works.push_back(pg->allreduce(tmp));
  }
  for (auto& w : works) w->wait();
  for (auto& param : model.named_parameters()) {
    param.value().grad().div_(pg->getSize());
  }
}

int main(int argc, char* argv[]) {
  TrainConfig cfg;
  auto pg = dist_env::create_gloo_group();
  auto numranks = pg->getSize();
  auto rank = pg->getRank();

  auto train_dataset =
      torch::data::datasets::MNIST("../data")
          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>());
  auto data_sampler = torch::data::samplers::DistributedRandomSampler(
      train_dataset.size().value(), numranks, rank, false);
  auto num_train_samples_per_proc = train_dataset.size().value() / numranks;
  auto data_loader = torch::data::make_data_loader(std::move(train_dataset), data_sampler, 16);

  torch::manual_seed(0);
  auto model = std::make_shared<Model>();
  torch::optim::AdamW optimizer(model->parameters(), make_optimizer_options(cfg));

  int64_t micro_step = 0;
  for (size_t epoch = 1; epoch <= cfg.epochs; ++epoch) {
    size_t num_correct = 0;
    for (auto& batch : *data_loader) {
      auto ip = batch.data.to(torch::kF32);
      auto op = batch.target.squeeze().to(torch::kLong);
      auto prediction = model->forward(ip);
      auto loss = torch::nll_loss(prediction, op) / cfg.accumulation_steps;
      loss.backward();
      num_correct += torch::sum(prediction.argmax(1).eq_(op)).item<int64_t>();

      if (++micro_step % cfg.accumulation_steps == 0) {
        average_gradients(*model, pg);
        optimizer.step();
        optimizer.zero_grad();
      }
    }
    std::cout << "Accuracy in rank " << rank << " in epoch " << epoch << " - "
              << 100.0 * num_correct / num_train_samples_per_proc << std::endl;
  }
  if (rank == 0) torch::save(model, "dist_mnist_adamw.pt");
  return 0;
}
