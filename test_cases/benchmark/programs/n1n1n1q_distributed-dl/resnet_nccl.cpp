// distributed-dl: CIFAR-10 ResNet on the NCCL process group
// (src/examples/resnet-cuda.cpp) with the network kept in half precision to
// fit a larger model per GPU; gradients are accumulated over micro-batches.
#include <torch/torch.h>

#include <iostream>
#include <vector>

#include "distributed_dl_pg.hpp"
#include "dl_resnet.hpp"

int main(int argc, char** argv) {
  ProcessGroupNCCL pg(argc, argv);
  auto numranks = pg.size();
  auto rank = pg.rank();
  torch::Device device(torch::kCUDA, rank);

  auto dataset = CIFAR10Dataset("./cifar-10-batches-bin/data_batch_1.bin")
                     .map(torch::data::transforms::Normalize<>(0.5, 0.5))
                     .map(torch::data::transforms::Stack<>());
  auto dist_data_sampler = torch::data::samplers::DistributedRandomSampler(
      dataset.size().value(), numranks, rank, false);
  auto num_train_samples_per_proc = dataset.size().value() / numranks;
  auto data_loader =
      torch::data::make_data_loader(std::move(dataset), dist_data_sampler, /*batch_size=*/16);
  torch::manual_seed(0);

  ResNet model{400};
  model->to(device, torch::kHalf);

  torch::nn::CrossEntropyLoss loss_fn;
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));

  const int accumulation_steps = 16;
  int micro = 0;

  for (size_t epoch = 1; epoch <= 5; ++epoch) {
    size_t num_correct = 0;

    for (auto& batch : *data_loader) {
      auto data = batch.data.to(device, torch::kHalf);
      auto target = batch.target.to(device);

      auto output = model->forward(data);
      auto loss = loss_fn(output.to(torch::kFloat), target) / accumulation_steps;
      loss.backward();

      if (++micro == accumulation_steps) {
        micro = 0;
        for (auto& param : model->named_parameters()) {
          auto meow = param.value().mutable_grad();
          pg.all_reduce(meow);
        }
        pg.barrier();
        for (auto& param : model->named_parameters()) {
          param.value().grad().data() = param.value().grad().data() / numranks;
        }
        optimizer.step();
        optimizer.zero_grad();
      }

      auto guess = output.argmax(1);
      num_correct += torch::sum(guess.eq_(target)).item<int64_t>();
    }
    auto accuracy = 100.0 * num_correct / num_train_samples_per_proc;
    std::cout << "Accuracy in rank " << rank << " in epoch " << epoch << " - " << accuracy
              << std::endl;
  }
  return 0;
}
