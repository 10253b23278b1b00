// distributed-dl: the raw-MPI example (src/examples/mpi/allreduce.cpp) applied to
// the CIFAR-10 ResNet: gradients are summed in place with MPI_Allreduce on the
// window's last micro-batch only.
#include <torch/torch.h>

#include <iostream>
#include <vector>

#include "mpi.h"
#include "dl_resnet.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  auto dataset = CIFAR10Dataset("./cifar-10-batches-bin/data_batch_1.bin")
                     .map(torch::data::transforms::Normalize<>(0.5, 0.5))
                     .map(torch::data::transforms::Stack<>());
  auto sampler = torch::data::samplers::DistributedRandomSampler(dataset.size().value(),
                                                                  world_size, rank, false);
  const auto samples_per_rank = dataset.size().value() / world_size;
  auto data_loader = torch::data::make_data_loader(std::move(dataset), sampler, 32);
  torch::manual_seed(0);

  ResNet model{10};
  torch::nn::CrossEntropyLoss loss_fn;
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));

  const int accumulation = 4;
  long long micro = 0;

  for (int epoch = 1; epoch <= 10; ++epoch) {
    long long correct = 0;
    for (auto& batch : *data_loader) {
      auto output = model->forward(batch.data);
      auto loss = loss_fn(output, batch.target) / accumulation;
      loss.backward();
      correct += torch::sum(output.argmax(1).eq(batch.target)).item<int64_t>();

      if (++micro % accumulation != 0) continue;

      for (auto& p : model->parameters()) {
        if (!p.grad().defined()) continue;
        auto g = p.grad().contiguous();
        MPI_Allreduce(MPI_IN_PLACE, g.data_ptr<float>(), static_cast<int>(g.numel()), MPI_FLOAT,
                      MPI_SUM, MPI_COMM_WORLD);
        p.mutable_grad() = g / world_size;
      }
      optimizer.step();
      optimizer.zero_grad();
    }

    long long total_correct = 0;
    MPI_Allreduce(&correct, &total_correct, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
      std::cout << "epoch " << epoch << " accuracy "
                << 100.0 * total_correct / (samples_per_rank * world_size) << std::endl;
    }
  }

  if (rank == 0) torch::save(model, "resnet_mpi_allreduce.pt");
  MPI_Finalize();
  return 0;
}
