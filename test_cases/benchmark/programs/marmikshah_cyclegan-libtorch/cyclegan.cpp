// CycleGAN trainer (Artium): two generators, two discriminators, four Adam
// optimizers with step-decay schedules, and gradient accumulation over
// --accumulation-steps loader batches for small-memory GPUs.
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
  double lamndaIdentity;
  double lambdaA;
  double lambdaB;

  explicit Settings(cxxopts::ParseResult opts) : SettingsBase(opts) {
    numResnetBlocks = opts["blocks"].as<int>();
    lamndaIdentity = opts["lambda-identity"].as<double>();
    lambdaA = opts["lambda-a"].as<double>();
    lambdaB = opts["lambda-b"].as<double>();
  }
  std::string getDomainPath(const std::string& domain, const std::string& mode = "train") {
    return getDatasetDirectory() + "/" + mode + domain + "/";
  }
};

namespace Models {
Sequential createDiscriminator(int inChannels = 3, int ndf = 64, int numLayers = 3) {
  Sequential network;
  network->push_back(Conv2d(Conv2dOptions(inChannels, ndf, 4).stride(2).padding(1)));
  network->push_back(LeakyReLU(LeakyReLUOptions().negative_slope(0.2).inplace(true)));
  int multiplier = 1, multiplierPrev = 1;
  for (int i = 1; i < numLayers; i++) {
    multiplierPrev = multiplier;
    multiplier = std::min(1 << i, 8);
    network->push_back(Conv2d(Conv2dOptions(ndf * multiplierPrev, ndf * multiplier, 4).stride(2).padding(1)));
    network->push_back(InstanceNorm2d(ndf * multiplier));
    network->push_back(LeakyReLU(LeakyReLUOptions().negative_slope(0.2).inplace(true)));
  }
  network->push_back(Conv2d(Conv2dOptions(ndf * multiplier, 1, 4).stride(1).padding(1)));
  return network;
}

Sequential createGenerator(int inChannels, int outChannels, int ngf = 64, int numBlocks = 6) {
  Sequential network;
  network->push_back(ReflectionPad2d(3));
  network->push_back(Conv2d(Conv2dOptions(inChannels, ngf, 7).padding(0)));
  network->push_back(InstanceNorm2d(ngf));
  network->push_back(ReLU(true));
  for (int i = 0; i < 2; i++) {
    int m = 1 << i;
    network->push_back(Conv2d(Conv2dOptions(ngf * m, ngf * m * 2, 3).stride(2).padding(1)));
    network->push_back(InstanceNorm2d(ngf * m * 2));
    network->push_back(ReLU(true));
  }
  for (int i = 0; i < numBlocks; i++) network->push_back(ResidualBlock(ngf * 4));
  for (int i = 0; i < 2; i++) {
    int m = 1 << (2 - i);
    network->push_back(
        ConvTranspose2d(ConvTranspose2dOptions(ngf * m, ngf * m / 2, 3).stride(2).padding(1).output_padding(1)));
    network->push_back(InstanceNorm2d(ngf * m / 2));
    network->push_back(ReLU(true));
  }
  network->push_back(ReflectionPad2d(3));
  network->push_back(Conv2d(Conv2dOptions(ngf, outChannels, 7).padding(0)));
  network->push_back(Tanh());
  return network;
}
}  // namespace Models

class ImageDataset : public torch::data::datasets::Dataset<ImageDataset> {
  std::vector<std::string> pathsA, pathsB;
  cv::Size dims;

 public:
  explicit ImageDataset(Settings opts) : dims(opts.getInputSize()) {
    for (int i = 0; i < 400; ++i) {
      pathsA.push_back(opts.getDomainPath("A") + std::to_string(i) + ".jpg");
      pathsB.push_back(opts.getDomainPath("B") + std::to_string(i) + ".jpg");
    }
  }
  torch::data::Example<> get(size_t index) override {
    return {matToTensor(pathsA[index % pathsA.size()], dims), matToTensor(pathsB[index % pathsB.size()], dims)};
  }
  torch::optional<size_t> size() const override { return std::min(pathsA.size(), pathsB.size()); }
};

class Trainer {
 private:
  Sequential genA, genB, disA, disB;
  std::unique_ptr<torch::optim::Adam> optimGA, optimGB, optimDA, optimDB;
  std::unique_ptr<torch::optim::StepLR> schedGA, schedGB, schedDA, schedDB;
  Settings opts;
  ImagePool poolA{50}, poolB{50};

  void stepSchedulers() {
    schedGA->step();
    schedGB->step();
    schedDA->step();
    schedDB->step();
  }

 public:
  explicit Trainer(cxxopts::ParseResult result) : opts(result) {
    genA = Models::createGenerator(3, 3, 64, opts.numResnetBlocks);
    genB = Models::createGenerator(3, 3, 64, opts.numResnetBlocks);
    disA = Models::createDiscriminator();
    disB = Models::createDiscriminator();
    genA->to(device);
    genB->to(device);
    disA->to(device);
    disB->to(device);

    using namespace torch::optim;
    double lr = opts.getLearningRate();
    std::cout << "Optimizer Learning Rate: " << lr << std::endl;
    optimGA = std::make_unique<Adam>(genA->parameters(), AdamOptions(lr).betas({0.5, 0.999}));
    optimDA = std::make_unique<Adam>(disA->parameters(), AdamOptions(lr).betas({0.5, 0.999}));
    optimGB = std::make_unique<Adam>(genB->parameters(), AdamOptions(lr).betas({0.5, 0.999}));
    optimDB = std::make_unique<Adam>(disB->parameters(), AdamOptions(lr).betas({0.5, 0.999}));

    const unsigned stepSize = opts.getStepSize();
    const double gamma = opts.getStepGamma();
    schedGA = std::make_unique<StepLR>(*optimGA, stepSize, gamma);
    schedGB = std::make_unique<StepLR>(*optimGB, stepSize, gamma);
    schedDA = std::make_unique<StepLR>(*optimDA, stepSize, gamma);
    schedDB = std::make_unique<StepLR>(*optimDB, stepSize, gamma);
  }

  void train() {
    using namespace torch::data;
    auto dataset = ImageDataset(opts).map(transforms::Stack<>());
    auto loader = make_data_loader(std::move(dataset), DataLoaderOptions(opts.getBatchSize()));

    std::string exportDir = opts.getExperimentDirectory();
    std::string previewDir = opts.getPreviewsDirectory();
    const int accumSteps = opts.getAccumulationSteps();

    int totalIterations = 0;
    std::cout << "------------------- Training Started -------------------" << std::endl;
    for (int epoch = 1; epoch <= opts.getTotalEpochs(); epoch++) {
      std::cout << "Epoch " << epoch << ":\t";
      double epochGenLoss = 0.0, epochDLoss = 0.0;
      std::string strEpoch = std::to_string(epoch);
      for (torch::data::Example<>& batch : *loader) {
        totalIterations += 1;
        torch::Tensor realImagesA = batch.data.to(device);
        torch::Tensor realImagesB = batch.target.to(device);

        /* ---------------- Generators ---------------- */
        setGrad(disA, false);
        setGrad(disB, false);
        torch::Tensor fakeImagesB = genA->forward(realImagesA);
        torch::Tensor reconstructedImagesA = genB->forward(fakeImagesB);
        torch::Tensor fakeImagesA = genB->forward(realImagesB);
        torch::Tensor reconstructedImagesB = genA->forward(fakeImagesA);
        torch::Tensor identityA = genA->forward(realImagesB);
        torch::Tensor identityB = genB->forward(realImagesA);

        torch::Tensor identityLossA = functional::l1_loss(identityA, realImagesB) * opts.lambdaB * opts.lamndaIdentity;
        torch::Tensor identityLossB = functional::l1_loss(identityB, realImagesA) * opts.lambdaA * opts.lamndaIdentity;
        torch::Tensor disAOnFakeB = disA->forward(fakeImagesB);
        torch::Tensor disBOnFakeA = disB->forward(fakeImagesA);
        torch::Tensor generatorLoss = functional::mse_loss(disAOnFakeB, torch::ones_like(disAOnFakeB)) +
                                      functional::mse_loss(disBOnFakeA, torch::ones_like(disBOnFakeA));
        torch::Tensor cycleLossA = functional::l1_loss(reconstructedImagesA, realImagesA) * opts.lambdaA;
        torch::Tensor cycleLossB = functional::l1_loss(reconstructedImagesB, realImagesB) * opts.lambdaB;
        torch::Tensor totalGenLoss = generatorLoss + cycleLossA + cycleLossB + identityLossA + identityLossB;
        (totalGenLoss / accumSteps).backward();
        epochGenLoss += totalGenLoss.item().toDouble();

        /* ---------------- Discriminators ---------------- */
        setGrad(disA, true);
        setGrad(disB, true);
        torch::Tensor _fakeImagesB = poolB.getImages(fakeImagesB);
        torch::Tensor predRealB = disA->forward(realImagesB);
        torch::Tensor predFakeB = disA->forward(_fakeImagesB.detach());
        torch::Tensor disLossA = 0.5 * (functional::mse_loss(predRealB, torch::ones_like(predRealB)) +
                                        functional::mse_loss(predFakeB, torch::zeros_like(predFakeB)));
        (disLossA / accumSteps).backward();

        torch::Tensor _fakeImagesA = poolA.getImages(fakeImagesA);
        torch::Tensor predRealA = disB->forward(realImagesA);
        torch::Tensor predFakeA = disB->forward(_fakeImagesA.detach());
        torch::Tensor disLossB = 0.5 * (functional::mse_loss(predRealA, torch::ones_like(predRealA)) +
                                        functional::mse_loss(predFakeA, torch::zeros_like(predFakeA)));
        (disLossB / accumSteps).backward();
        epochDLoss += disLossA.item().toDouble() + disLossB.item().toDouble();

        if (totalIterations % accumSteps == 0) {
          optimGA->step();
          optimGB->step();
          optimDA->step();
          optimDB->step();
          optimGA->zero_grad();
          optimGB->zero_grad();
          optimDA->zero_grad();
          optimDB->zero_grad();
        }
        stepSchedulers();
      }

      cv::imwrite(previewDir + "/fakeB-" + strEpoch + ".png", tensorToMat(genA->forward(batchPreview(loader)), true));
      std::cout << "Loss(G): " << epochGenLoss << ",\tLoss(D): " << epochDLoss << std::endl;
      exportModel(genA, exportDir + "/genAcheckpoint" + strEpoch + ".pt");
      exportModel(genB, exportDir + "/genBcheckpoint" + strEpoch + ".pt");
    }
  }

  template <typename Loader>
  torch::Tensor batchPreview(Loader& loader) {
    torch::NoGradGuard noGrad;
    for (auto& batch : *loader) return batch.data.to(device).narrow(0, 0, 1);
    return torch::zeros({1, 3, opts.getInputHeight(), opts.getInputWidth()}, device);
  }
};

}  // namespace CycleGAN

int main(int argc, char** argv) {
  cxxopts::ParseResult result;
  result.set("dataset", "data/horse2zebra");
  result.set("width", "256");
  result.set("height", "256");
  result.set("blocks", "9");
  result.set("epochs", "200");
  result.set("batch-size", "1");
  result.set("learning-rate", "0.0002");
  result.set("lambda-identity", "0.5");
  result.set("lambda-a", "10.0");
  result.set("lambda-b", "10.0");
  result.set("step-size", "1000");
  result.set("step-gamma", "0.9");
  result.set("accumulation-steps", "8");
  result.set("export-dir", "experiment/");
  CycleGAN::Trainer trainer(result);
  trainer.train();
}
