// CycleGAN trainer (Artium) across several processes over Gloo: each process reads
// its own shard of both domains, the generator pair and the discriminator pair
// accumulate `accumSteps` batches, and gradients are averaged across processes
// right before clipping and stepping.
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <torch/torch.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "artium_lite.hpp"

namespace CycleGAN {

using namespace torch::nn;

Sequential createGenerator(int ngf, int numBlocks) {
  Sequential network;
  network->push_back(ReflectionPad2d(3));
  network->push_back(Conv2d(Conv2dOptions(3, ngf, 7)));
  network->push_back(InstanceNorm2d(ngf));
  network->push_back(ReLU(true));
  network->push_back(Conv2d(Conv2dOptions(ngf, ngf * 2, 3).stride(2).padding(1)));
  network->push_back(InstanceNorm2d(ngf * 2));
  network->push_back(ReLU(true));
  for (int i = 0; i < numBlocks; i++) network->push_back(ResidualBlock(ngf * 2));
  network->push_back(ConvTranspose2d(ConvTranspose2dOptions(ngf * 2, ngf, 3).stride(2).padding(1).output_padding(1)));
  network->push_back(InstanceNorm2d(ngf));
  network->push_back(ReLU(true));
  network->push_back(ReflectionPad2d(3));
  network->push_back(Conv2d(Conv2dOptions(ngf, 3, 7)));
  network->push_back(Tanh());
  return network;
}

Sequential createDiscriminator(int ndf) {
  Sequential network;
  network->push_back(Conv2d(Conv2dOptions(3, ndf, 4).stride(2).padding(1)));
  network->push_back(LeakyReLU(LeakyReLUOptions().negative_slope(0.2)));
  network->push_back(Conv2d(Conv2dOptions(ndf, ndf * 2, 4).stride(2).padding(1)));
  network->push_back(InstanceNorm2d(ndf * 2));
  network->push_back(LeakyReLU(LeakyReLUOptions().negative_slope(0.2)));
  network->push_back(Conv2d(Conv2dOptions(ndf * 2, 1, 4).padding(1)));
  return network;
}

class ShardDataset : public torch::data::datasets::Dataset<ShardDataset> {
  size_t count;
  cv::Size dims{128, 128};

 public:
  ShardDataset(int rank, int world) : count(1000 / world) { (void)rank; }
  torch::data::Example<> get(size_t index) override {
    std::string p = std::to_string(index);
    return {matToTensor(p, dims), matToTensor(p, dims)};
  }
  torch::optional<size_t> size() const override { return count; }
};

class DistributedTrainer {
  Sequential genA, genB, disA, disB;
  std::unique_ptr<torch::optim::Adam> optimG, optimD;
  c10::intrusive_ptr<c10d::ProcessGroup> pg;
  int rank;
  int accumSteps = 4;
  double lambdaCycle = 10.0, lambdaIdentity = 0.5, maxNorm = 5.0;

  std::vector<torch::Tensor> paramsOf(Sequential& a, Sequential& b) {
    auto ps = a->parameters();
    for (auto& p : b->parameters()) ps.push_back(p);
    return ps;
  }

  void averageAcrossProcesses(const std::vector<torch::Tensor>& params) {
    const double world = static_cast<double>(pg->getSize());
    for (const auto& p : params) {
      if (!p.grad().defined()) continue;
      std::vector<torch::Tensor> t{p.grad()};
      pg->allreduce(t)->wait();
      p.grad().div_(world);
    }
  }

 public:
  DistributedTrainer(c10::intrusive_ptr<c10d::ProcessGroup> group, int rank) : pg(std::move(group)), rank(rank) {
    torch::manual_seed(1234);
    genA = createGenerator(64, 6);
    genB = createGenerator(64, 6);
    disA = createDiscriminator(64);
    disB = createDiscriminator(64);
    optimG = std::make_unique<torch::optim::Adam>(paramsOf(genA, genB), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
    optimD = std::make_unique<torch::optim::Adam>(paramsOf(disA, disB), torch::optim::AdamOptions(2e-4).betas({0.5, 0.999}));
  }

  void train(int epochs) {
    auto loader = torch::data::make_data_loader(
        ShardDataset(rank, pg->getSize()).map(torch::data::transforms::Stack<>()),
        torch::data::DataLoaderOptions(1));
    int iteration = 0;
    optimG->zero_grad();
    optimD->zero_grad();
    for (int epoch = 1; epoch <= epochs; ++epoch) {
      double genSum = 0.0, disSum = 0.0;
      for (auto& batch : *loader) {
        auto realA = batch.data, realB = batch.target;

        setGrad(disA, false);
        setGrad(disB, false);
        auto fakeB = genA->forward(realA);
        auto fakeA = genB->forward(realB);
        auto predB = disA->forward(fakeB);
        auto predA = disB->forward(fakeA);
        auto adv = functional::mse_loss(predB, torch::ones_like(predB)) + functional::mse_loss(predA, torch::ones_like(predA));
        auto cycle = functional::l1_loss(genB->forward(fakeB), realA) + functional::l1_loss(genA->forward(fakeA), realB);
        auto identity = functional::l1_loss(genA->forward(realB), realB) + functional::l1_loss(genB->forward(realA), realA);
        auto genLoss = adv + lambdaCycle * cycle + lambdaCycle * lambdaIdentity * identity;
        (genLoss / accumSteps).backward();
        setGrad(disA, true);
        setGrad(disB, true);

        auto rB = disA->forward(realB), fB = disA->forward(fakeB.detach());
        auto rA = disB->forward(realA), fA = disB->forward(fakeA.detach());
        auto disLoss = 0.5 * (functional::mse_loss(rB, torch::ones_like(rB)) + functional::mse_loss(fB, torch::zeros_like(fB)) +
                              functional::mse_loss(rA, torch::ones_like(rA)) + functional::mse_loss(fA, torch::zeros_like(fA)));
        (disLoss / accumSteps).backward();
        genSum += genLoss.item<double>();
        disSum += disLoss.item<double>();

        if (++iteration % accumSteps == 0) {
          auto gParams = paramsOf(genA, genB);
          auto dParams = paramsOf(disA, disB);
          averageAcrossProcesses(gParams);
          averageAcrossProcesses(dParams);
          torch::nn::utils::clip_grad_norm_(gParams, maxNorm);
          torch::nn::utils::clip_grad_norm_(dParams, maxNorm);
          optimG->step();
          optimD->step();
          optimG->zero_grad();
          optimD->zero_grad();
        }
      }
      if (rank == 0) {
        std::cout << "Epoch " << epoch << " Loss(G): " << genSum << " Loss(D): " << disSum << std::endl;
        exportModel(genA, "experiment/genA" + std::to_string(epoch) + ".pt");
        exportModel(genB, "experiment/genB" + std::to_string(epoch) + ".pt");
      }
    }
  }
};

}  // namespace CycleGAN

int main() {
  const int rank = std::atoi(std::getenv("RANK") ? std::getenv("RANK") : "0");
  const int world = std::atoi(std::getenv("WORLD_SIZE") ? std::getenv("WORLD_SIZE") : "1");
  auto store = c10::make_intrusive<c10d::FileStore>("/tmp/cyclegan_store", world);
  auto options = c10d::ProcessGroupGloo::Options::create();
  options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world, options);
  CycleGAN::DistributedTrainer trainer(pg, rank);
  trainer.train(200);
}
