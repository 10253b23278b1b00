// distributed-dl: ResNet on CIFAR-10 with the bare MPI process group
// (src/examples/resnet-cuda.cpp layout, CPU build), accumulating micro-batches.
#include <torch/torch.h>

#include <iostream>

#include "distributed_dl_pg.hpp"
#include "dl_resnet.hpp"

int main(int argc, char** argv) {
  ProcessGroupMPI pg(argc, argv);
  auto numranks = pg.size();
  auto rank = pg.rank();

  torch::Device device = torch::Device(torch::kCPU);

  auto dataset = CIFAR10Dataset("./cifar-10-batches-bin/data_batch_1.bin")
                     .map(torch::data::transforms::Normalize<>(0.5, 0.5))
                     .map(torch::data::transforms::Stack<>());
  auto dist_data_sampler = torch::data::samplers::DistributedRandomSampler(
      dataset.size().value(), numranks, rank, false);
  auto num_train_samples_per_proc = dataset.size().value() / numranks;

  auto total_batch_size = 64;
  auto batch_size_per_proc = total_batch_size / numranks;
  auto data_loader =
      torch::data::make_data_loader(std::move(dataset), dist_data_sampler, batch_size_per_proc);
  torch::manual_seed(0);

  ResNet model{10};
  model->to(device);

  torch::nn::CrossEntropyLoss loss_fn;
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));

  // Effective batch: total_batch_size * accum_iters samples per update.
  const int accum_iters = 4;
  int iteration = 0;

  const size_t num_epochs = 5;
  for (size_t epoch = 1; epoch <= num_epochs; ++epoch) {
    size_t num_correct = 0;

    for (auto& batch : *data_loader) {
      auto data = batch.data.to(device);
      auto target = batch.target.to(device);

      auto output = model->forward(data);
      auto loss = loss_fn(output, target) / accum_iters;
      loss.backward();

      for (auto& param : model->named_parameters()) {
        auto meow = param.value().mutable_grad();
        pg.all_reduce(meow);
      }
      pg.barrier();

      iteration++;
      if (iteration % accum_iters == 0) {
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

  std::vector<at::Tensor> grads;
  for (auto& param : model->parameters()) {
    grads.push_back(param.grad().view({-1}));
  }
  auto flat = torch::cat(grads);
  if (rank == 0) {
    std::cout << "final gradient norm " << flat.norm().item<double>() << std::endl;
    torch::save(model, "resnet_mpi.pt");
  }
  return 0;
}
