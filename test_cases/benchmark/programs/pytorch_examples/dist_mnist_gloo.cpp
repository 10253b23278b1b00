// dist-mnist on a Gloo process group (CPU only), with per-rank micro-batching.
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <iomanip>
#include <iostream>
#include <vector>

#include "dist_env.hpp"

struct ModelImpl : torch::nn::Module {
  ModelImpl()
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
TORCH_MODULE(Model);

template <typename ProcessGroup>
void waitWork(const c10::intrusive_ptr<ProcessGroup>& pg,
              std::vector<c10::intrusive_ptr<c10d::Work>>& works) {
  for (auto& work : works) {
    try {
      work->wait();
    } catch (const std::exception& ex) {
      std::cerr << "ProcessGroup exception: " << ex.what() << std::endl;
      std::exit(EXIT_FAILURE);
    }
  }
  works.clear();
}

// Sums every parameter gradient over the ranks, then turns the sum into a mean.
void allreduce_gradients(Model& model,
                         const c10::intrusive_ptr<c10d::ProcessGroupGloo>& pg) {
  std::vector<c10::intrusive_ptr<c10d::Work>> works;
  for (auto& param : model->named_parameters()) {
    std::vector<torch::Tensor> tmp = {param.value().grad()};
    works.push_back(pg->allreduce(tmp));
  }
  waitWork(pg, works);
  for (auto& param : model->named_parameters()) {
    param.value().grad().div_(pg->getSize());
  }
}

// Mean of a scalar over the ranks, for the log line only.
double global_mean(double value, const c10::intrusive_ptr<c10d::ProcessGroupGloo>& pg) {
  std::vector<torch::Tensor> buf = {torch::tensor({value}, torch::kDouble)};
  pg->allreduce(buf)->wait();
  return buf[0].item<double>() / pg->getSize();
}

int main(int argc, char* argv[]) {
  auto pg = dist_env::create_gloo_group();
  const auto numranks = pg->getSize();
  const auto rank = pg->getRank();
  const int64_t accumulation_steps = argc > 1 ? std::atoll(argv[1]) : 8;

  const char* kDataRoot = "../data";
  auto train_dataset =
      torch::data::datasets::MNIST(kDataRoot)
          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>());
  auto data_sampler = torch::data::samplers::DistributedRandomSampler(
      train_dataset.size().value(), numranks, rank, false);
  auto num_train_samples_per_proc = train_dataset.size().value() / numranks;

  auto batch_size_per_proc = 16;
  auto data_loader = torch::data::make_data_loader(
      std::move(train_dataset), data_sampler, batch_size_per_proc);

  torch::manual_seed(0);
  Model model;
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(1e-2).momentum(0.5));

  for (size_t epoch = 1; epoch <= 10; ++epoch) {
    size_t num_correct = 0;
    double running_loss = 0.0;
    int64_t accumulated = 0;
    int64_t updates = 0;

    for (auto& batch : *data_loader) {
      auto ip = batch.data.to(torch::kF32);
      auto op = batch.target.squeeze().to(torch::kLong);

      auto prediction = model->forward(ip);
      auto loss = torch::nll_loss(prediction, op);
      (loss / static_cast<double>(accumulation_steps)).backward();
      running_loss += loss.item<double>();

      if (++accumulated == accumulation_steps) {
        allreduce_gradients(model, pg);
        optimizer.step();
        optimizer.zero_grad();
        accumulated = 0;
        ++updates;
      }

      num_correct += torch::sum(prediction.argmax(1).eq_(op)).item<int64_t>();
    }

    // Leftover micro-batches of the epoch still make one (smaller) update.
    if (accumulated != 0) {
      allreduce_gradients(model, pg);
      optimizer.step();
      optimizer.zero_grad();
      accumulated = 0;
      ++updates;
    }

    const double mean_loss = global_mean(running_loss, pg);
    if (rank == 0) {
      std::cout << "epoch " << epoch << " updates " << updates << " loss "
                << std::setprecision(4) << mean_loss << std::endl;
    }
    std::cout << "Accuracy in rank " << rank << " in epoch " << epoch << " - "
              << 100.0 * num_correct / num_train_samples_per_proc << std::endl;
  }

  if (rank == 0) {
    torch::save(model, "dist_mnist_model.pt");
  }
  return 0;
}
