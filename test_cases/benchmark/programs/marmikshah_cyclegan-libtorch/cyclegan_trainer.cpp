// CycleGAN trainer (Artium) for 512px images: each loader batch is split into
// micro-batches for the generators' forward/backward; the generators take one step
// per loader batch, the discriminators one step per loader batch on the pooled fakes.
#include <torch/torch.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "artium_lite.hpp"

namespace CycleGAN {

using namespace torch::nn;

struct Settings : SettingsBase {
  int numResnetBlocks;
  int microBatches;
  double lamndaIdentity, lambdaA, lambdaB;
  explicit Settings(cxxopts::ParseResult opts) : SettingsBase(opts) {
    numResnetBlocks = opts["blocks"].as<int>();
    microBatches = opts["micro-batches"].as<int>();
    lamndaIdentity = opts["lambda-identity"].as<double>();
    lambdaA = opts["lambda-a"].as<double>();
    lambdaB = opts["lambda-b"].as<double>();
  }
};

Sequential createDiscriminator(int ndf = 64) {
  Sequential network;
  network->push_back(Conv2d(Conv2dOptions(3, ndf, 4).stride(2).padding(1)));
  network->push_back(LeakyReLU(LeakyReLUOptions().negative_slope(0.2)));
  network->push_back(Conv2d(Conv2dOptions(ndf, ndf * 2, 4).stride(2).padding(1)));
  network->push_back(InstanceNorm2d(ndf * 2));
  network->push_back(LeakyReLU(LeakyReLUOptions().negative_slope(0.2)));
  network->push_back(Conv2d(Conv2dOptions(ndf * 2, 1, 4).stride(1).padding(1)));
  return network;
}

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

class ImageDataset : public torch::data::datasets::Dataset<ImageDataset> {
  cv::Size dims;
  size_t count;

 public:
  explicit ImageDataset(Settings opts) : dims(opts.getInputSize()), count(600) {}
  torch::data::Example<> get(size_t index) override {
    std::string path = "sample" + std::to_string(index) + ".jpg";
    return {matToTensor(path, dims), matToTensor(path, dims)};
  }
  torch::optional<size_t> size() const override { return count; }
};

class Trainer {
  Sequential genA, genB, disA, disB;
  std::unique_ptr<torch::optim::Adam> optimG, optimDA, optimDB;
  Settings opts;
  ImagePool poolA{50}, poolB{50};
  int optimizerSteps = 0;

  struct GenOutput {
    torch::Tensor loss, fakeA, fakeB;
  };

  // Full generator objective of one micro-batch, already weighted by its share
  // of the loader batch.
  GenOutput generatorLoss(const torch::Tensor& realA, const torch::Tensor& realB, int64_t numChunks) {
    torch::Tensor fakeB = genA->forward(realA);
    torch::Tensor fakeA = genB->forward(realB);
    torch::Tensor recA = genB->forward(fakeB);
    torch::Tensor recB = genA->forward(fakeA);
    torch::Tensor predB = disA->forward(fakeB);
    torch::Tensor predA = disB->forward(fakeA);
    torch::Tensor adv = functional::mse_loss(predB, torch::ones_like(predB)) +
                        functional::mse_loss(predA, torch::ones_like(predA));
    torch::Tensor cycle = functional::l1_loss(recA, realA) * opts.lambdaA + functional::l1_loss(recB, realB) * opts.lambdaB;
    torch::Tensor identity = (functional::l1_loss(genA->forward(realB), realB) * opts.lambdaB +
                              functional::l1_loss(genB->forward(realA), realA) * opts.lambdaA) *
                             opts.lamndaIdentity;
    return {(adv + cycle + identity) / static_cast<double>(numChunks), fakeA.detach(), fakeB.detach()};
  }

  double updateLR(torch::optim::Adam& optim) {
    double updated = -1;
    for (auto& group : optim.param_groups()) {
      auto& options = static_cast<torch::optim::AdamOptions&>(group.options());
      options.lr(options.lr() * opts.getStepGamma());
      if (updated < 0) updated = options.lr();
    }
    return updated;
  }

 public:
  explicit Trainer(cxxopts::ParseResult result) : opts(result) {
    genA = createGenerator(64, opts.numResnetBlocks);
    genB = createGenerator(64, opts.numResnetBlocks);
    disA = createDiscriminator();
    disB = createDiscriminator();
    for (auto* net : {&genA, &genB, &disA, &disB}) (*net)->to(device);

    std::vector<torch::Tensor> genParams = genA->parameters();
    for (auto& p : genB->parameters()) genParams.push_back(p);
    double lr = opts.getLearningRate();
    optimG = std::make_unique<torch::optim::Adam>(genParams, torch::optim::AdamOptions(lr).betas({0.5, 0.999}));
    optimDA = std::make_unique<torch::optim::Adam>(disA->parameters(), torch::optim::AdamOptions(lr).betas({0.5, 0.999}));
    optimDB = std::make_unique<torch::optim::Adam>(disB->parameters(), torch::optim::AdamOptions(lr).betas({0.5, 0.999}));
  }

  void train() {
    using namespace torch::data;
    auto loader = make_data_loader(ImageDataset(opts).map(transforms::Stack<>()), DataLoaderOptions(opts.getBatchSize()));
    std::string exportDir = opts.getExperimentDirectory();

    for (int epoch = 1; epoch <= opts.getTotalEpochs(); epoch++) {
      double epochGenLoss = 0.0, epochDLoss = 0.0;
      for (torch::data::Example<>& batch : *loader) {
        auto chunksA = batch.data.to(device).chunk(opts.microBatches, 0);
        auto chunksB = batch.target.to(device).chunk(opts.microBatches, 0);
        const int64_t numChunks = static_cast<int64_t>(chunksA.size());

        /* Generators: micro-batches accumulate into one step */
        setGrad(disA, false);
        setGrad(disB, false);
        optimG->zero_grad();
        std::vector<torch::Tensor> fakesA, fakesB;
        for (int64_t c = 0; c < numChunks; ++c) {
          GenOutput out = generatorLoss(chunksA[c], chunksB[c], numChunks);
          out.loss.backward();
          epochGenLoss += out.loss.item().toDouble();
          fakesA.push_back(out.fakeA);
          fakesB.push_back(out.fakeB);
        }
        optimG->step();
        setGrad(disA, true);
        setGrad(disB, true);

        /* Discriminators: whole loader batch at once, on pooled fakes */
        torch::Tensor realA = batch.data.to(device), realB = batch.target.to(device);
        optimDA->zero_grad();
        torch::Tensor pooledB = poolB.getImages(torch::cat(fakesB, 0));
        torch::Tensor predRealB = disA->forward(realB), predFakeB = disA->forward(pooledB);
        torch::Tensor disLossA = 0.5 * (functional::mse_loss(predRealB, torch::ones_like(predRealB)) +
                                        functional::mse_loss(predFakeB, torch::zeros_like(predFakeB)));
        disLossA.backward();
        optimDA->step();

        optimDB->zero_grad();
        torch::Tensor pooledA = poolA.getImages(torch::cat(fakesA, 0));
        torch::Tensor predRealA = disB->forward(realA), predFakeA = disB->forward(pooledA);
        torch::Tensor disLossB = 0.5 * (functional::mse_loss(predRealA, torch::ones_like(predRealA)) +
                                        functional::mse_loss(predFakeA, torch::zeros_like(predFakeA)));
        disLossB.backward();
        optimDB->step();
        epochDLoss += disLossA.item().toDouble() + disLossB.item().toDouble();

        if (++optimizerSteps % opts.getStepSize() == 0) {
          std::cout << "Updated LR:" << updateLR(*optimG) << "\t";
          updateLR(*optimDA);
          updateLR(*optimDB);
        }
      }
      std::cout << "Epoch " << epoch << " Loss(G): " << epochGenLoss << ",\tLoss(D): " << epochDLoss << std::endl;
      exportModel(genA, exportDir + "/genAcheckpoint" + std::to_string(epoch) + ".pt");
      exportModel(genB, exportDir + "/genBcheckpoint" + std::to_string(epoch) + ".pt");
    }
  }
};

}  // namespace CycleGAN

int main() {
  cxxopts::ParseResult result;
  result.set("dataset", "data/monet2photo");
  result.set("width", "512");
  result.set("height", "512");
  result.set("blocks", "9");
  result.set("micro-batches", "4");
  result.set("epochs", "200");
  result.set("batch-size", "8");
  result.set("learning-rate", "0.0002");
  result.set("lambda-identity", "0.5");
  result.set("lambda-a", "10.0");
  result.set("lambda-b", "10.0");
  result.set("step-size", "1000");
  result.set("step-gamma", "0.9");
  result.set("export-dir", "experiment/");
  CycleGAN::Trainer trainer(result);
  trainer.train();
}
