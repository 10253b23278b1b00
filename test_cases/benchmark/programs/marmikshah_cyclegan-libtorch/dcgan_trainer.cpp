// DCGAN trainer (Artium) with discriminator gradient clipping for stability and a
// step-decay schedule on both optimizers. Loader batches of 16 are accumulated four
// at a time for both networks.
#include <torch/torch.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "artium_lite.hpp"

namespace DCGAN {

using namespace torch::nn;

struct Settings : SettingsBase {
  int nz;
  double disClip;
  explicit Settings(cxxopts::ParseResult opts) : SettingsBase(opts) {
    nz = opts["latent-vector"].as<int>();
    disClip = opts["dis-clip"].as<double>();
  }
};

Sequential createGenerator(int nz, int ngf) {
  Sequential network;
  network->push_back(ConvTranspose2d(ConvTranspose2dOptions(nz, ngf * 4, 4).bias(false)));
  network->push_back(BatchNorm2d(ngf * 4));
  network->push_back(ReLU(true));
  network->push_back(ConvTranspose2d(ConvTranspose2dOptions(ngf * 4, ngf * 2, 4).stride(2).padding(1).bias(false)));
  network->push_back(BatchNorm2d(ngf * 2));
  network->push_back(ReLU(true));
  network->push_back(ConvTranspose2d(ConvTranspose2dOptions(ngf * 2, ngf, 4).stride(2).padding(1).bias(false)));
  network->push_back(BatchNorm2d(ngf));
  network->push_back(ReLU(true));
  network->push_back(ConvTranspose2d(ConvTranspose2dOptions(ngf, 3, 4).stride(2).padding(1).bias(false)));
  network->push_back(Tanh());
  return network;
}

Sequential createDiscriminator(int ndf) {
  Sequential network;
  network->push_back(Conv2d(Conv2dOptions(3, ndf, 4).stride(2).padding(1).bias(false)));
  network->push_back(LeakyReLU(LeakyReLUOptions().negative_slope(0.2).inplace(true)));
  network->push_back(Conv2d(Conv2dOptions(ndf, ndf * 2, 4).stride(2).padding(1).bias(false)));
  network->push_back(BatchNorm2d(ndf * 2));
  network->push_back(LeakyReLU(LeakyReLUOptions().negative_slope(0.2).inplace(true)));
  network->push_back(Conv2d(Conv2dOptions(ndf * 2, ndf * 4, 4).stride(2).padding(1).bias(false)));
  network->push_back(BatchNorm2d(ndf * 4));
  network->push_back(LeakyReLU(LeakyReLUOptions().negative_slope(0.2).inplace(true)));
  network->push_back(Conv2d(Conv2dOptions(ndf * 4, 1, 4).bias(false)));
  network->push_back(Sigmoid());
  return network;
}

class ImageDataset : public torch::data::datasets::Dataset<ImageDataset> {
  std::vector<std::string> paths;
  cv::Size dims{32, 32};

 public:
  explicit ImageDataset(Settings opts) {
    for (int i = 0; i < 4096; ++i) paths.push_back(opts.getDatasetDirectory() + "/" + std::to_string(i) + ".png");
  }
  torch::data::Example<> get(size_t index) override { return {matToTensor(paths[index], dims), torch::zeros({1})}; }
  torch::optional<size_t> size() const override { return paths.size(); }
};

class Trainer {
  Sequential gen, dis;
  Settings opts;

 public:
  explicit Trainer(cxxopts::ParseResult result) : opts(result) {
    dis = createDiscriminator(64);
    gen = createGenerator(opts.nz, 64);
    dis->to(device);
    gen->to(device);
  }

  void train() {
    using namespace torch::data;
    auto loader = make_data_loader(ImageDataset(opts).map(transforms::Stack<>()),
                                   DataLoaderOptions(opts.getBatchSize()).drop_last(true));
    std::string exportDir = opts.getExperimentDirectory();
    std::string previewDir = opts.getPreviewsDirectory();

    using namespace torch::optim;
    const double lr = opts.getLearningRate();
    const int accumSteps = opts.getAccumulationSteps();
    Adam genOptimizer(gen->parameters(), AdamOptions(lr).betas({0.5, 0.999}));
    Adam disOptimizer(dis->parameters(), AdamOptions(lr).betas({0.5, 0.999}));
    StepLR genScheduler(genOptimizer, opts.getStepSize(), opts.getStepGamma());
    StepLR disScheduler(disOptimizer, opts.getStepSize(), opts.getStepGamma());

    int64_t iteration = 0;
    for (int64_t epoch = 1; epoch <= opts.getTotalEpochs(); ++epoch) {
      double epochGenLoss = 0.0, epochDisLoss = 0.0;
      std::string strEpoch = std::to_string(epoch);

      for (torch::data::Example<>& batch : *loader) {
        torch::Tensor inputReal = batch.data.to(device);
        const int64_t batchSize = inputReal.size(0);

        torch::Tensor predReal = dis->forward(inputReal);
        torch::Tensor disLossReal = torch::binary_cross_entropy(predReal, torch::full_like(predReal, 0.9));
        torch::Tensor fakeGenerations = gen->forward(torch::randn({batchSize, opts.nz, 1, 1}, device));
        torch::Tensor predFake = dis->forward(fakeGenerations.detach());
        torch::Tensor disLossFake = torch::binary_cross_entropy(predFake, torch::zeros_like(predFake));
        torch::Tensor disLoss = (disLossReal + disLossFake) / accumSteps;
        disLoss.backward();
        torch::nn::utils::clip_grad_norm_(dis->parameters(), opts.disClip);
        epochDisLoss += disLoss.item().toDouble() * accumSteps;

        setGrad(dis, false);
        torch::Tensor predGen = dis->forward(fakeGenerations);
        torch::Tensor genLoss = torch::binary_cross_entropy(predGen, torch::ones_like(predGen));
        (genLoss / accumSteps).backward();
        setGrad(dis, true);
        epochGenLoss += genLoss.item().toDouble();

        if (++iteration % accumSteps == 0) {
          disOptimizer.step();
          genOptimizer.step();
          disScheduler.step();
          genScheduler.step();
          disOptimizer.zero_grad();
          genOptimizer.zero_grad();
        }
      }

      if (epoch % 5 == 0) {
        torch::NoGradGuard noGrad;
        auto output = gen->forward(torch::randn({1, opts.nz, 1, 1}, device));
        cv::imwrite(previewDir + "generation" + strEpoch + ".png", tensorToMat(output[0], true));
        exportModel(gen, exportDir + "/gencheckpoint" + strEpoch + ".pt");
        exportModel(dis, exportDir + "/discheckpoint" + strEpoch + ".pt");
      }
      std::cout << "Epoch " << epoch << " Loss(G): " << epochGenLoss << ",\tLoss(D): " << epochDisLoss << std::endl;
    }
  }
};

}  // namespace DCGAN

int main() {
  cxxopts::ParseResult result;
  result.set("dataset", "data/cifar_png");
  result.set("epochs", "60");
  result.set("batch-size", "16");
  result.set("learning-rate", "0.0002");
  result.set("latent-vector", "100");
  result.set("accumulation-steps", "4");
  result.set("dis-clip", "1.0");
  result.set("step-size", "2000");
  result.set("step-gamma", "0.5");
  result.set("export-dir", "experiment/");
  DCGAN::Trainer trainer(result);
  trainer.train();
}
