// distributed-dl: a DistributedTrainer (src/distributed.hpp) whose gradient
// synchronisation works on one flat buffer, used by the CIFAR-10 ResNet example.
#include <torch/torch.h>

#include <iostream>
#include <memory>
#include <vector>

#include "distributed_dl_pg.hpp"
#include "dl_resnet.hpp"

class DistributedTrainer {
  std::unique_ptr<ProcessGroupMPI> pg_mpi;

 public:
  DistributedTrainer(int argc, char** argv) : pg_mpi(std::make_unique<ProcessGroupMPI>(argc, argv)) {}

  int size() const { return pg_mpi->size(); }
  int rank() const { return pg_mpi->rank(); }

  // One all_reduce for the whole model: pack, sum, unpack, average.
  void sync_flat_gradients(std::vector<torch::Tensor>& params) {
    std::vector<torch::Tensor> views;
    for (auto& p : params) views.push_back(p.grad().reshape({-1}));
    auto bucket = torch::cat(views);
    pg_mpi->all_reduce(bucket);
    bucket.div_(size());
    int64_t offset = 0;
    for (auto& p : params) {
      p.mutable_grad().copy_(bucket.slice(0, offset, offset + p.numel()).view_as(p));
      offset += p.numel();
    }
  }

  double sync_precision(double precision) { return pg_mpi->default_all_reduce(precision); }
};

int main(int argc, char** argv) {
  DistributedTrainer dt(argc, argv);
  auto numranks = dt.size();
  auto rank = dt.rank();

  auto dataset = CIFAR10Dataset("./cifar-10-batches-bin/data_batch_1.bin")
                     .map(torch::data::transforms::Normalize<>(0.5, 0.5))
                     .map(torch::data::transforms::Stack<>());
  auto sampler = torch::data::samplers::DistributedRandomSampler(dataset.size().value(),
                                                                  numranks, rank, false);
  const auto num_train_samples_per_proc = dataset.size().value() / numranks;
  auto data_loader = torch::data::make_data_loader(std::move(dataset), sampler, 16);
  torch::manual_seed(0);

  ResNet model{10};
  auto params = model->parameters();
  torch::nn::CrossEntropyLoss loss_fn;
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.02).momentum(0.9).weight_decay(5e-4));

  const int accumulation_steps = 8;
  const double grad_clip = 1.0;
  int64_t global_batch = 0;

  for (size_t epoch = 1; epoch <= 20; ++epoch) {
    size_t num_correct = 0;
    for (auto& batch : *data_loader) {
      auto output = model->forward(batch.data);
      auto loss = loss_fn(output, batch.target);
      (loss / accumulation_steps).backward();
      num_correct += torch::sum(output.argmax(1).eq_(batch.target)).item<int64_t>();

      ++global_batch;
      if (global_batch % accumulation_steps != 0) {
        continue;
      }
      torch::nn::utils::clip_grad_value_(params, grad_clip);
      dt.sync_flat_gradients(params);
      optimizer.step();
      optimizer.zero_grad();
    }
    auto accuracy = dt.sync_precision(100.0 * num_correct / num_train_samples_per_proc);
    if (rank == 0) {
      std::cout << "Accuracy in epoch " << epoch << " - " << accuracy << std::endl;
      torch::save(model, "resnet_epoch_" + std::to_string(epoch) + ".pt");
    }
  }
  return 0;
}
