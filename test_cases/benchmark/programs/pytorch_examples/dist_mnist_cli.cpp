// dist-mnist with command-line options: each loader batch is split into
// micro-batches so that the per-rank batch can be raised without more memory.
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <vector>

#include "dist_env.hpp"

struct Options {
  int64_t batch_size_per_proc = 64;
  int64_t micro_batches = 4;
  double learning_rate = 1e-2;
  double max_grad_norm = 1.0;
  size_t num_epochs = 10;
  std::string data_root = "../data";
};

Options parse_args(int argc, char* argv[]) {
  Options opts;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string key = argv[i];
    std::string value = argv[i + 1];
    if (key == "--batch-size") opts.batch_size_per_proc = std::stoll(value);
    else if (key == "--micro-batches") opts.micro_batches = std::stoll(value);
    else if (key == "--lr") opts.learning_rate = std::stod(value);
    else if (key == "--max-grad-norm") opts.max_grad_norm = std::stod(value);
    else if (key == "--epochs") opts.num_epochs = std::stoul(value);
    else if (key == "--data") opts.data_root = value;
  }
  return opts;
}

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
  const Options opts = parse_args(argc, argv);
  auto pg = dist_env::create_gloo_group();
  auto numranks = pg->getSize();
  auto rank = pg->getRank();

  auto train_dataset =
      torch::data::datasets::MNIST(opts.data_root)
          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>());
  auto data_sampler = torch::data::samplers::DistributedRandomSampler(
      train_dataset.size().value(), numranks, rank, false);
  auto num_train_samples_per_proc = train_dataset.size().value() / numranks;
  auto data_loader = torch::data::make_data_loader(
      std::move(train_dataset), data_sampler, opts.batch_size_per_proc);

  torch::manual_seed(0);
  auto model = std::make_shared<Model>();
  torch::optim::SGD optimizer(model->parameters(), opts.learning_rate);

  for (size_t epoch = 1; epoch <= opts.num_epochs; ++epoch) {
    size_t num_correct = 0;

    for (auto& batch : *data_loader) {
      auto ip = batch.data.to(torch::kF32);
      auto op = batch.target.squeeze().to(torch::kLong);

      model->zero_grad();
      auto ip_chunks = ip.chunk(opts.micro_batches);
      auto op_chunks = op.chunk(opts.micro_batches);
      const auto n_chunks = static_cast<double>(ip_chunks.size());
      for (size_t c = 0; c < ip_chunks.size(); ++c) {
        auto prediction = model->forward(ip_chunks[c]);
        auto loss = torch::nll_loss(prediction, op_chunks[c]) / n_chunks;
        loss.backward();
        num_correct +=
            torch::sum(prediction.argmax(1).eq_(op_chunks[c])).item<int64_t>();
      }

      torch::nn::utils::clip_grad_norm_(model->parameters(), opts.max_grad_norm);

      std::vector<c10::intrusive_ptr<c10d::Work>> works;
      for (auto& param : model->named_parameters()) {
        std::vector<torch::Tensor> tmp = {param.value().grad()};
        works.push_back(pg->allreduce(tmp));
      }
      waitWork(pg, works);
      for (auto& param : model->named_parameters()) {
        param.value().grad().data() = param.value().grad().data() / numranks;
      }

      optimizer.step();
    }

    std::cout << "Accuracy in rank " << rank << " in epoch " << epoch << " - "
              << 100.0 * num_correct / num_train_samples_per_proc << std::endl;
  }
  return 0;
}
