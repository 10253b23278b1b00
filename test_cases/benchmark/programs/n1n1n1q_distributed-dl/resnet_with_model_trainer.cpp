// distributed-dl: ResNet on CIFAR-10 through the DistributedTrainer helper
// (src/examples/resnet-with-model-trainer.cpp, src/distributed.hpp), with the
// per-rank batch split into micro-batches.
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

  // Keeps the BatchNorm running statistics identical on every rank.
  void synchronize_batch_norms(torch::nn::Module& module) {
    for (auto& child : module.named_children()) {
      if (auto bn = dynamic_cast<torch::nn::BatchNorm2dImpl*>(child.value().get())) {
        if (cuda) {
          pg_nccl->all_reduce(bn->running_mean);
          pg_nccl->all_reduce(bn->running_var);
        } else {
          pg_mpi->all_reduce(bn->running_mean);
          pg_mpi->all_reduce(bn->running_var);
        }
        bn->running_mean /= size();
        bn->running_var /= size();
      }
      synchronize_batch_norms(*child.value());
    }
  }

  // Sums each gradient over the ranks and divides it by the number of ranks.
  template <typename T>
  void sync_train_step(torch::nn::ModuleHolder<T> model) {
    for (auto& param : model->named_parameters()) {
      auto grad = param.value().mutable_grad();
      if (cuda) {
        pg_nccl->all_reduce(grad);
      } else {
        pg_mpi->all_reduce(grad);
      }
      grad.data() = grad.data() / size();
    }
  }

  double sync_precision(double precision) {
    return cuda ? pg_nccl->default_all_reduce(precision) : pg_mpi->default_all_reduce(precision);
  }
};

int main(int argc, char** argv) {
  bool is_cuda = torch::cuda::is_available();
  DistributedTrainer dt(argc, argv, is_cuda);
  torch::Device device = is_cuda ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);

  auto numranks = dt.size();
  auto rank = dt.rank();

  auto dataset = CIFAR10Dataset("./cifar-10-batches-bin/data_batch_1.bin")
                     .map(torch::data::transforms::Normalize<>(0.5, 0.5))
                     .map(torch::data::transforms::Stack<>());
  auto dist_data_sampler = torch::data::samplers::DistributedRandomSampler(
      dataset.size().value(), numranks, rank, false);
  auto num_train_samples_per_proc = dataset.size().value() / numranks;

  const int accumulation_steps = 4;
  auto total_batch_size = 256;
  auto micro_batch_size = total_batch_size / numranks / accumulation_steps;
  auto data_loader = torch::data::make_data_loader(std::move(dataset), dist_data_sampler,
                                                   micro_batch_size);
  torch::manual_seed(0);

  ResNet model{10};
  model->to(device);

  torch::nn::CrossEntropyLoss loss_fn;
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.01).momentum(0.9));

  size_t micro_step = 0;
  constexpr size_t num_epochs = 10;
  for (size_t epoch = 1; epoch <= num_epochs; ++epoch) {
    model->train();
    size_t num_correct = 0;

    for (auto& batch : *data_loader) {
      auto data = batch.data.to(device);
      auto target = batch.target.to(device);

      auto output = model->forward(data);
      auto loss = loss_fn(output, target) / accumulation_steps;
      loss.backward();

      dt.synchronize_batch_norms(*model);

      if (++micro_step % accumulation_steps == 0) {
        dt.sync_train_step(model);
        optimizer.step();
        optimizer.zero_grad();
      }

      auto guess = output.argmax(1);
      num_correct += torch::sum(guess.eq_(target)).item<int64_t>();
    }
    auto accuracy = dt.sync_precision(100.0 * num_correct / num_train_samples_per_proc);
    if (rank == 0) {
      std::cout << "Accuracy in epoch " << epoch << " - " << accuracy << std::endl;
    }
  }

  if (rank == 0) {
    torch::save(model, "resnet_cifar10.pt");
  }
  return 0;
}
