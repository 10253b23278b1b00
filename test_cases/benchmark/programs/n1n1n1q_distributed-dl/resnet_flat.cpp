// distributed-dl ResNet/CIFAR-10 on MPI (src/examples/resnet-cuda.cpp, CPU build):
// every micro-batch's gradients are gathered into one flat buffer, which is
// all-reduced once per window and written back before the update.
#include <torch/torch.h>

#include <iostream>
#include <vector>

#include "distributed_dl_pg.hpp"
#include "dl_resnet.hpp"

int main(int argc, char** argv) {
  ProcessGroupMPI pg(argc, argv);
  const int numranks = pg.size();
  const int rank = pg.rank();

  auto dataset = CIFAR10Dataset("./cifar-10-batches-bin/data_batch_1.bin")
                     .map(torch::data::transforms::Normalize<>(0.5, 0.5))
                     .map(torch::data::transforms::Stack<>());
  auto sampler = torch::data::samplers::DistributedRandomSampler(dataset.size().value(),
                                                                  numranks, rank, false);
  const auto num_train_samples_per_proc = dataset.size().value() / numranks;
  auto data_loader = torch::data::make_data_loader(std::move(dataset), sampler, 32);
  torch::manual_seed(0);

  ResNet model{10};
  auto params = model->parameters();
  int64_t total = 0;
  for (auto& p : params) total += p.numel();
  torch::Tensor grad_buffer = torch::zeros({total});

  torch::nn::CrossEntropyLoss loss_fn;
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.01).momentum(0.9));

  const int accum_steps = 4;
  int64_t step_in_window = 0;

  for (size_t epoch = 1; epoch <= 10; ++epoch) {
    size_t num_correct = 0;
    for (auto& batch : *data_loader) {
      auto output = model->forward(batch.data);
      auto loss = loss_fn(output, batch.target) / accum_steps;
      loss.backward();
      num_correct += torch::sum(output.argmax(1).eq_(batch.target)).item<int64_t>();

      // Append this micro-batch's gradients to the flat buffer.
      int64_t offset = 0;
      for (auto& p : params) {
        grad_buffer.slice(0, offset, offset + p.numel()).add_(p.grad().reshape({-1}));
        offset += p.numel();
      }

      if (++step_in_window < accum_steps) continue;
      step_in_window = 0;

      pg.all_reduce(grad_buffer);
      grad_buffer.div_(numranks);
      offset = 0;
      for (auto& p : params) {
        p.mutable_grad().copy_(grad_buffer.slice(0, offset, offset + p.numel()).view_as(p));
        offset += p.numel();
      }
      optimizer.step();
      optimizer.zero_grad();
      grad_buffer.zero_();
    }
    auto accuracy = pg.default_all_reduce(100.0 * num_correct / num_train_samples_per_proc);
    if (rank == 0) std::cout << "Accuracy in epoch " << epoch << " - " << accuracy << std::endl;
  }
  return 0;
}
