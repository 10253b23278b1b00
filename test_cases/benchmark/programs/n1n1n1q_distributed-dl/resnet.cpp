// distributed-dl ResNet example (src/examples/resnet-cuda.cpp, CPU/MPI build) with the gradients
// packed into one flat buffer so each update needs a single MPI all-reduce.
#include <torch/torch.h>

#include <iostream>
#include <vector>

#include "distributed_dl_pg.hpp"
#include "dl_resnet.hpp"

// Copies every gradient into one contiguous buffer.
torch::Tensor flatten_grads(const std::vector<torch::Tensor>& params) {
  std::vector<torch::Tensor> views;
  views.reserve(params.size());
  for (const auto& p : params) views.push_back(p.grad().reshape({-1}));
  return torch::cat(views);
}

// Writes the (reduced) flat buffer back into the gradients, scaled by `scale`.
void unflatten_grads(const torch::Tensor& flat, std::vector<torch::Tensor>& params, double scale) {
  int64_t offset = 0;
  for (auto& p : params) {
    const int64_t n = p.numel();
    p.mutable_grad().copy_(flat.slice(0, offset, offset + n).view_as(p) * scale);
    offset += n;
  }
}

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
  for (auto& p : params) p.mutable_grad() = torch::zeros_like(p);

  torch::nn::CrossEntropyLoss loss_fn;
  torch::optim::SGD optimizer(params, torch::optim::SGDOptions(0.01).momentum(0.9));

  const int grad_accum = 4;
  int accumulated = 0;

  for (size_t epoch = 1; epoch <= 10; ++epoch) {
    size_t num_correct = 0;
    double epoch_loss = 0.0;

    for (auto& batch : *data_loader) {
      auto output = model->forward(batch.data);
      auto loss = loss_fn(output, batch.target);
      loss.backward();
      epoch_loss += loss.item<double>();
      num_correct += torch::sum(output.argmax(1).eq_(batch.target)).item<int64_t>();

      if (++accumulated < grad_accum) continue;
      accumulated = 0;

      auto flat = flatten_grads(params);
      pg.all_reduce(flat);
      unflatten_grads(flat, params, 1.0 / numranks);

      optimizer.step();
      optimizer.zero_grad();
    }

    const double mean_loss = pg.default_all_reduce(epoch_loss);
    if (rank == 0) {
      std::cout << "epoch " << epoch << " loss " << mean_loss << " acc "
                << 100.0 * num_correct / num_train_samples_per_proc << std::endl;
    }
  }
  return 0;
}
