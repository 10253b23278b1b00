// DCGAN trainer (Artium): discriminator and generator with their own Adam
// optimizers; both take one step every `accumSteps` loader batches.
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

namespace Models {
Sequential createGenerator(int nz, int ngf) {
  Sequential network;
  network->push_back(ConvTranspose2d(ConvTranspose2dOptions(nz, ngf * 8, 4).stride(1).padding(0).bias(false)));
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
  network->push_back(LeakyReLU(LeakyReLUOptions().negative_slope(0.2).inplace(true)));
  network->push_back(Conv2d(Conv2dOptions(ndf, ndf * 2, 4).stride(2).padding(1).bias(false)));
  network->push_back(BatchNorm2d(ndf * 2));
  network->push_back(LeakyReLU(LeakyReLUOptions().negative_slope(0.2).inplace(true)));
  network->push_back(Conv2d(Conv2dOptions(ndf * 2, ndf * 4, 4).stride(2).padding(1).bias(false)));
  network->push_back(BatchNorm2d(ndf * 4));
  network->push_back(LeakyReLU(LeakyReLUOptions().negative_slope(0.2).inplace(true)));
  network->push_back(Conv2d(Conv2dOptions(ndf * 4, ndf * 8, 4).stride(2).padding(1).bias(false)));
  network->push_back(BatchNorm2d(ndf * 8));
  network->push_back(LeakyReLU(LeakyReLUOptions().negative_slope(0.2).inplace(true)));
  network->push_back(Conv2d(Conv2dOptions(ndf * 8, 1, 4).stride(1).padding(0).bias(false)));
  network->push_back(Sigmoid());
  return network;
}
}  // namespace Models

class ImageDataset : public torch::data::datasets::Dataset<ImageDataset> {
  std::vector<std::string> paths;
  cv::Size dims;

 public:
  explicit ImageDataset(Settings opts) : dims(64, 64) {
    for (int i = 0; i < 1024; ++i) paths.push_back(opts.getDatasetDirectory() + "/" + std::to_string(i) + ".png");
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
    dis = Models::createDiscriminator(64);
    gen = Models::createGenerator(opts.nz, 64);
    dis->to(device);
    gen->to(device);
    std::cout << " -------------------- Generator --------------------" << std::endl << gen << std::endl;
    std::cout << " -------------------- Discriminator --------------------" << std::endl << dis << std::endl;
  }

  void train() {
    using namespace torch::data;
    auto dataset = ImageDataset(opts).map(transforms::Stack<>());
    auto loader = make_data_loader(std::move(dataset), DataLoaderOptions(opts.getBatchSize()));

    std::string exportDir = opts.getExperimentDirectory();
    std::string previewDir = opts.getPreviewsDirectory();

    using namespace torch::optim;
    double lr = opts.getLearningRate();
    const int accumSteps = opts.getAccumulationSteps();
    std::cout << "Learning Rate: " << lr << ", accumulation: " << accumSteps << std::endl;
    Adam genOptimizer(gen->parameters(), AdamOptions(lr).betas({0.5, 0.999}));
    Adam disOptimizer(dis->parameters(), AdamOptions(lr).betas({0.5, 0.999}));
    std::cout << "------------------- Training Started -------------------" << std::endl;

    dis->zero_grad();
    gen->zero_grad();
    for (int64_t epoch = 1; epoch <= opts.getTotalEpochs(); ++epoch) {
      double epochGenLoss = 0.0, epochDisLoss = 0.0;
      std::string strEpoch = std::to_string(epoch);
      std::cout << "Epoch " << epoch << ":\t";

      for (torch::data::Example<>& batch : *loader) {
        torch::Tensor inputReal = batch.data.to(device);
        int batchSize = inputReal.size(0);
        torch::Tensor predReal = dis->forward(inputReal);
        torch::Tensor target = torch::full_like(predReal, 1.0).to(device);
        torch::Tensor disLossReal = torch::binary_cross_entropy(predReal, target);
        (disLossReal / accumSteps).backward();

        torch::Tensor inputFake = torch::randn({batchSize, opts.nz, 1, 1}).to(device);
        torch::Tensor fakeGenerations = gen->forward(inputFake);
        target.fill_(0.0);
        torch::Tensor predFake = dis->forward(fakeGenerations.detach());
        torch::Tensor disLossFake = torch::binary_cross_entropy(predFake, target);
        (disLossFake / accumSteps).backward();
        epochDisLoss += (disLossFake + disLossReal).item().toDouble();

        gen->zero_grad();
        target.fill_(1);
        predFake = dis->forward(fakeGenerations);
        torch::Tensor genLoss = torch::binary_cross_entropy(predFake, target);
        (genLoss / accumSteps).backward();
        epochGenLoss += genLoss.item().toDouble();

        if (++micro == accumSteps) {
          disOptimizer.step();
          genOptimizer.step();
          dis->zero_grad();
          gen->zero_grad();
          micro = 0;
        }
      }

      if (epoch % 5 == 0) {
        torch::NoGradGuard noGrad;
        auto output = gen->forward(torch::randn({1, opts.nz, 1, 1}).to(device));
        cv::imwrite(previewDir + "generation" + strEpoch + ".png", tensorToMat(output[0], true));
        exportModel(gen, exportDir + "/gencheckpoint" + strEpoch + ".pt");
      }
      std::cout << "Loss(G): " << epochGenLoss << ",\tLoss(D): " << epochDisLoss << std::endl;
    }
  }
};

}  // namespace DCGAN

int main() {
  cxxopts::ParseResult result;
  result.set("dataset", "data/anime");
  result.set("epochs", "100");
  result.set("batch-size", "32");
  result.set("learning-rate", "0.0002");
  result.set("latent-vector", "100");
  result.set("accumulation-steps", "4");
  result.set("export-dir", "experiment/");
  DCGAN::Trainer trainer(result);
  trainer.train();
}
