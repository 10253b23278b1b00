// dist-mnist (cpp/distributed/dist-mnist.cpp) on GPUs: the process group is NCCL,
// created by the launcher, and gradients travel as one coalesced collective.
#include <c10d/ProcessGroup.hpp>
#include <torch/torch.h>

#include <iostream>
#include <vector>

// Provided by the launcher glue: an NCCL group over RANK / WORLD_SIZE.
c10::intrusive_ptr<c10d::ProcessGroup> createProcessGroupNCCL(int argc, char* argv[]);

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

  at::Tensor forward(at::Tensor x) {
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

int main(int argc, char* argv[]) {
  auto pg = createProcessGroupNCCL(argc, argv);
  auto num_ranks = pg->getSize();
  auto rank = pg->getRank();
  torch::Device device(torch::kCUDA, rank);

  auto train_dataset =
      torch::data::datasets::MNIST("./data")
          .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
          .map(torch::data::transforms::Stack<>());
  auto data_sampler = torch::data::samplers::DistributedRandomSampler(
      train_dataset.size().value(), num_ranks, rank, false);
  auto num_train_samples_per_proc = train_dataset.size().value() / num_ranks;
  auto data_loader = torch::data::make_data_loader(std::move(train_dataset), data_sampler, 32);

  torch::manual_seed(42);
  Model model;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(1e-2).momentum(0.9));

  const int accumulation_steps = 2;
  int64_t batch_count = 0;
  c10d::AllreduceCoalescedOptions avg_opts;
  avg_opts.reduceOp = c10d::ReduceOp::AVG;

  for (size_t epoch = 1; epoch <= 10; ++epoch) {
    size_t num_correct = 0;
    for (auto& batch : *data_loader) {
      auto ip = batch.data.to(device).to(torch::kF32);
      auto op = batch.target.squeeze().to(device).to(torch::kLong);

      auto prediction = model->forward(ip);
      auto loss = torch::nll_loss(prediction, op);
      (loss / accumulation_steps).backward();
      num_correct += torch::sum(prediction.argmax(1).eq_(op)).item<int64_t>();

      batch_count++;
      if (batch_count % accumulation_steps == accumulation_steps - 1) {
        continue;
      }

      std::vector<torch::Tensor> grads;
      for (auto& param : model->parameters()) grads.push_back(param.grad());
      pg->allreduce_coalesced(grads, avg_opts)->wait();
      for (auto& g : grads) g.div_(num_ranks);

      optimizer.step();
      optimizer.zero_grad();
    }
    std::cout << "Accuracy in rank " << rank << " in epoch " << epoch << " - "
              << 100.0 * num_correct / num_train_samples_per_proc << std::endl;
  }
  return 0;
}
