// distributed-dl: CIFAR-10 ResNet over the NCCL process group
// (src/examples/resnet-cuda.cpp); each epoch runs a whole number of
// accumulation windows and skips the collective on the other micro-batches.
#include <torch/torch.h>

#include <iostream>
#include <vector>

#include "distributed_dl_pg.hpp"
#include "dl_resnet.hpp"

int main(int argc, char** argv) {
  ProcessGroupNCCL pg(argc, argv);
  auto numranks = pg.size();
  auto rank = pg.rank();
  torch::Device device = torch::Device(torch::kCUDA, rank % 8);

  auto dataset = CIFAR10Dataset("./cifar-10-batches-bin/data_batch_1.bin")
                     .map(torch::data::transforms::Normalize<>(0.5, 0.5))
                     .map(torch::data::transforms::Stack<>());
  auto dist_data_sampler = torch::data::samplers::DistributedRandomSampler(
      dataset.size().value(), numranks, rank, false);
  const size_t num_train_samples_per_proc = dataset.size().value() / numranks;

  const size_t micro_batch = 32;
  const size_t accumulation = 4;
  // Only whole windows are used; the remainder of the shard is skipped.
  const size_t windows_per_epoch = num_train_samples_per_proc / micro_batch / accumulation;
  auto data_loader =
      torch::data::make_data_loader(std::move(dataset), dist_data_sampler, micro_batch);
  torch::manual_seed(0);

  ResNet model{10};
  model->to(device);
  torch::nn::CrossEntropyLoss loss_fn;
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(0.1).momentum(0.9).nesterov(true));
  torch::optim::StepLR lr_schedule(optimizer, /*step_size=*/30, /*gamma=*/0.1);

  for (size_t epoch = 1; epoch <= 90; ++epoch) {
    model->train();
    size_t num_correct = 0;
    auto it = data_loader->begin();

    for (size_t step = 0; step < windows_per_epoch * accumulation; ++step, ++it) {
      auto& batch = *it;
      auto data = batch.data.to(device);
      auto target = batch.target.to(device);

      auto output = model->forward(data);
      auto loss = loss_fn(output, target);
      (loss / static_cast<double>(accumulation)).backward();
      num_correct += torch::sum(output.argmax(1).eq_(target)).item<int64_t>();

      const bool is_sync_step = (step + 1) % accumulation == 0;
      if (!is_sync_step) {
        continue;
      }

      for (auto& param : model->named_parameters()) {
        auto grad = param.value().mutable_grad();
        pg.all_reduce(grad);
      }
      pg.barrier();
      for (auto& param : model->named_parameters()) {
        param.value().grad().data() = param.value().grad().data() / numranks;
      }
      torch::nn::utils::clip_grad_norm_(model->parameters(), 5.0);
      optimizer.step();
      optimizer.zero_grad();
    }
    lr_schedule.step();

    auto accuracy = pg.default_all_reduce(100.0 * num_correct / num_train_samples_per_proc);
    if (rank == 0) {
      std::cout << "Accuracy in epoch " << epoch << " - " << accuracy << std::endl;
    }
  }
  return 0;
}
