// DCGAN trainer (Artium) for 64x64 anime faces: batches of 8 on a small GPU,
// both networks accumulate over `accumSteps` batches, exponential learning-rate
// decay once per optimizer step, previews every 5 epochs.
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <vector>

#include "artium_lite.hpp"

namespace DCGAN {

using namespace torch::nn;

struct Settings : SettingsBase {
  int nz;
  explicit Settings(cxxopts::ParseResult opts) : SettingsBase(opts) { nz = opts["latent-vector"].as<int>(); }
};

Sequential createGenerator(int nz, int ngf) {
  Sequential network;
  network->push_back(ConvTranspose2d(ConvTranspose2dOptions(nz, ngf * 8, 4).bias(false)));
  network->push_back(BatchNorm2d(ngf * 8));
  network->push_back(ReLU(true));
  network->push_back(ConvTranspose2d(ConvTranspose2dOptions(ngf * 8, ngf * 4, 4).stride(2).padding(1).bias(false)));
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
  network->push_back(LeakyReLU(LeakyReLUOptions().negative_slope(0.2)));
  network->push_back(Conv2d(Conv2dOptions(ndf, ndf * 2, 4).stride(2).padding(1).bias(false)));
  network->push_back(BatchNorm2d(ndf * 2));
  network->push_back(LeakyReLU(LeakyReLUOptions().negative_slope(0.2)));
  network->push_back(Conv2d(Conv2dOptions(ndf * 2, ndf * 4, 4).stride(2).padding(1).bias(false)));
  network->push_back(BatchNorm2d(ndf * 4));
  network->push_back(LeakyReLU(LeakyReLUOptions().negative_slope(0.2)));
  network->push_back(Conv2d(Conv2dOptions(ndf * 4, ndf * 8, 4).stride(2).padding(1).bias(false)));
  network->push_back(BatchNorm2d(ndf * 8));
  network->push_back(LeakyReLU(LeakyReLUOptions().negative_slope(0.2)));
  network->push_back(Conv2d(Conv2dOptions(ndf * 8, 1, 4).bias(false)));
  network->push_back(Sigmoid());
  return network;
}

class ImageDataset : public torch::data::datasets::Dataset<ImageDataset> {
  std::vector<std::string> paths;
  cv::Size dims{64, 64};

 public:
  explicit ImageDataset(Settings opts) {
    for (int i = 0; i < 21551; ++i) paths.push_back(opts.getDatasetDirectory() + "/" + std::to_string(i) + ".png");
  }
  torch::data::Example<> get(size_t index) override { return {matToTensor(paths[index], dims), torch::zeros({1})}; }
  torch::optional<size_t> size() const override { return paths.size(); }
};

class Trainer {
  Sequential gen, dis;
  Settings opts;
  int micro = 0;

 public:
  explicit Trainer(cxxopts::ParseResult result) : opts(result) {
    dis = createDiscriminator(64);
    gen = createGenerator(opts.nz, 64);
    dis->to(device);
    gen->to(device);
  }

  void train() {
    using namespace torch::data;
    auto loader = make_data_loader(ImageDataset(opts).map(transforms::Stack<>()), DataLoaderOptions(opts.getBatchSize()));
    std::string exportDir = opts.getExperimentDirectory();
    std::string previewDir = opts.getPreviewsDirectory();

    using namespace torch::optim;
    const double lr = opts.getLearningRate();
    const int accumSteps = opts.getAccumulationSteps();
    Adam genOptimizer(gen->parameters(), AdamOptions(lr).betas({0.5, 0.999}));
    Adam disOptimizer(dis->parameters(), AdamOptions(lr).betas({0.5, 0.999}));
    StepLR genDecay(genOptimizer, 1, opts.getStepGamma());
    StepLR disDecay(disOptimizer, 1, opts.getStepGamma());

    for (int64_t epoch = 1; epoch <= opts.getTotalEpochs(); ++epoch) {
      double epochGenLoss = 0.0, epochDisLoss = 0.0;
      std::string strEpoch = std::to_string(epoch);
      for (torch::data::Example<>& batch : *loader) {
        if (micro == 0) {
          dis->zero_grad();
          gen->zero_grad();
        }
        torch::Tensor inputReal = batch.data.to(device);
        const int64_t batchSize = inputReal.size(0);
        torch::Tensor predReal = dis->forward(inputReal);
        torch::Tensor disLossReal = torch::binary_cross_entropy(predReal, torch::full_like(predReal, 1.0));
        torch::Tensor fake = gen->forward(torch::randn({batchSize, opts.nz, 1, 1}, device));
        torch::Tensor predFake = dis->forward(fake.detach());
        torch::Tensor disLossFake = torch::binary_cross_entropy(predFake, torch::zeros_like(predFake));
        torch::Tensor totalDisLoss = disLossReal + disLossFake;
        (totalDisLoss / accumSteps).backward();
        epochDisLoss += totalDisLoss.item().toDouble();

        setGrad(dis, false);
        torch::Tensor predGen = dis->forward(fake);
        torch::Tensor genLoss = torch::binary_cross_entropy(predGen, torch::ones_like(predGen));
        (genLoss / accumSteps).backward();
        setGrad(dis, true);
        epochGenLoss += genLoss.item().toDouble();

        if (++micro == accumSteps) {
          disOptimizer.step();
          genOptimizer.step();
          disDecay.step();
          genDecay.step();
          micro = 0;
        }
      }

      if (epoch % 5 == 0) {
        torch::NoGradGuard noGrad;
        auto output = gen->forward(torch::randn({1, opts.nz, 1, 1}, device));
        cv::imwrite(previewDir + "generation" + strEpoch + ".png", tensorToMat(output[0], true));
        exportModel(gen, exportDir + "/gencheckpoint" + strEpoch + ".pt");
      }
      std::cout << "Epoch " << epoch << " Loss(G): " << epochGenLoss << ",\tLoss(D): " << epochDisLoss << std::endl;
    }
  }
};

}  // namespace DCGAN

int main() {
  cxxopts::ParseResult result;
  result.set("dataset", "data/anime_faces");
  result.set("epochs", "40");
  result.set("batch-size", "8");
  result.set("learning-rate", "0.0002");
  result.set("latent-vector", "100");
  result.set("accumulation-steps", "8");
  result.set("step-gamma", "0.9999");
  result.set("export-dir", "experiment/");
  DCGAN::Trainer trainer(result);
  trainer.train();
}
