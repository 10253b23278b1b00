// distributed-dl: DistributedTrainer on the NCCL path (src/distributed.hpp,
// src/examples/resnet-cuda.cpp) with gradient accumulation over micro-batches.
#include <torch/torch.h>

#include <iostream>
#include <memory>

#include "distributed_dl_pg.hpp"
#include "dl_resnet.hpp"

class DistributedTrainer {
  std::unique_ptr<ProcessGroupMPI> pg_mpi = nullptr;
  std::unique_ptr<ProcessGroupNCCL> pg_nccl = nullptr;
  bool cuda = false;

 public:
  DistributedTrainer(int argc, char** argv, bool is_cuda = false) : cuda{is_cuda} {
    if (is_cuda) {
      pg_nccl = std::make_unique<ProcessGroupNCCL>(argc, argv);
    } else {
      pg_mpi = std::make_unique<ProcessGroupMPI>(argc, argv);
    }
  }

  int size() const { return cuda ? pg_nccl->size() : pg_mpi->size(); }
  int rank() const { return cuda ? pg_nccl->rank() : pg_mpi->rank(); }

  template <typename T>
  void sync_train_step(torch::nn::ModuleHolder<T> model) {
    if (cuda) {
      for (auto& param : model->named_parameters()) {
        auto meow = param.value().mutable_grad();
        pg_nccl->all_reduce(meow);
        meow.data() = meow.data() / pg_nccl->size();
      }
      for (auto& param : model->named_parameters()) {
        param.value().grad().data() = param.value().grad().data() / pg_nccl->size();
      }
    } else {
      for (auto& param : model->named_parameters()) {
        auto meow = param.value().mutable_grad();
        pg_mpi->all_reduce(meow);
        meow.data() = meow.data() / pg_mpi->size();
      }
    }
  }

  double sync_precision(double precision) {
    return cuda ? pg_nccl->default_all_reduce(precision) : pg_mpi->default_all_reduce(precision);
  }
};

int main(int argc, char** argv) {
  const bool is_cuda = true;
  DistributedTrainer dt(argc, argv, is_cuda);
  torch::Device device(torch::kCUDA);

  auto numranks = dt.size();
  auto rank = dt.rank();

  auto dataset = CIFAR10Dataset("./cifar-10-batches-bin/data_batch_1.bin")
                     .map(torch::data::transforms::Normalize<>(0.5, 0.5))
                     .map(torch::data::transforms::Stack<>());
  auto dist_data_sampler = torch::data::samplers::DistributedRandomSampler(
      dataset.size().value(), numranks, rank, false);
  const size_t num_train_samples_per_proc = dataset.size().value() / numranks;

  const size_t micro_batch_size = 16;
  const size_t accumulation_steps = 8;
  const size_t batches_per_epoch =
      (num_train_samples_per_proc + micro_batch_size - 1) / micro_batch_size;
  auto data_loader =
      torch::data::make_data_loader(std::move(dataset), dist_data_sampler, micro_batch_size);
  torch::manual_seed(0);

  ResNet model{10};
  model->to(device);

  torch::nn::CrossEntropyLoss loss_fn;
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.05).momentum(0.9));

  const size_t num_epochs = 5;
  for (size_t epoch = 1; epoch <= num_epochs; ++epoch) {
    size_t num_correct = 0;
    size_t batch_idx = 0;

    for (auto& batch : *data_loader) {
      auto data = batch.data.to(device);
      auto target = batch.target.to(device);

      auto output = model->forward(data);
      auto loss = loss_fn(output, target);
      (loss / static_cast<double>(accumulation_steps)).backward();

      const bool sync_now = (batch_idx + 1) % accumulation_steps == 0 ||
                            batch_idx + 1 == batches_per_epoch;
      if (sync_now) {
        dt.sync_train_step(model);
        optimizer.step();
        optimizer.zero_grad();
      }
      ++batch_idx;

      num_correct += torch::sum(output.argmax(1).eq_(target)).item<int64_t>();
    }

    auto accuracy = dt.sync_precision(100.0 * num_correct / num_train_samples_per_proc);
    std::cout << "Accuracy in rank " << rank << " in epoch " << epoch << " - " << accuracy
              << std::endl;
  }
  return 0;
}
