// Stand-ins for the Artium (cyclegan-libtorch) helpers: globals, image tools, the
// image pool, the residual block and the command-line settings.
#pragma once
#include <torch/torch.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cxxopts.hpp"
#include "opencv_lite.hpp"

inline torch::Device device = torch::cuda::is_available() ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU);

inline void setGrad(torch::nn::Sequential& model, bool grad) {
  for (auto& param : model->parameters()) param.set_requires_grad(grad);
}

template <typename T>
void exportModel(T& model, const std::string& exportPath) {
  torch::serialize::OutputArchive archive;
  model->save(archive);
  archive.save_to(exportPath);
}

inline cv::Mat tensorToMat(torch::Tensor tensor, bool doDenorm = false) {
  cv::Mat out;
  out.rows = static_cast<int>(tensor.size(1));
  out.cols = static_cast<int>(tensor.size(2));
  (void)doDenorm;
  return out;
}

inline torch::Tensor matToTensor(const std::string& /*path*/, const cv::Size& size) {
  return torch::rand({3, size.height, size.width}) * 2 - 1;
}

class ImagePool {
  int poolSize;
  std::vector<torch::Tensor> pool;

 public:
  explicit ImagePool(int poolSize = 50) : poolSize(poolSize) {}
  torch::Tensor getImages(torch::Tensor images) {
    std::vector<torch::Tensor> out;
    for (int64_t i = 0; i < images.size(0); ++i) {
      auto image = images[i].detach().unsqueeze(0);
      if (static_cast<int>(pool.size()) < poolSize) {
        pool.push_back(image);
        out.push_back(image);
      } else if (std::rand() % 2 == 0) {
        int idx = std::rand() % poolSize;
        out.push_back(pool[idx].clone());
        pool[idx] = image;
      } else {
        out.push_back(image);
      }
    }
    return torch::cat(out, 0);
  }
};

struct ResidualBlockImpl : torch::nn::Module {
  torch::nn::Sequential conv{nullptr};
  explicit ResidualBlockImpl(int features) {
    torch::nn::Sequential block;
    block->push_back(torch::nn::ReflectionPad2d(1));
    block->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(features, features, 3)));
    block->push_back(torch::nn::InstanceNorm2d(features));
    block->push_back(torch::nn::ReLU(torch::nn::ReLUOptions(true)));
    block->push_back(torch::nn::ReflectionPad2d(1));
    block->push_back(torch::nn::Conv2d(torch::nn::Conv2dOptions(features, features, 3)));
    block->push_back(torch::nn::InstanceNorm2d(features));
    conv = register_module("conv", block);
  }
  torch::Tensor forward(torch::Tensor x) { return x + conv->forward(x); }
};
TORCH_MODULE(ResidualBlock);

struct SettingsBase {
  cxxopts::ParseResult opts;
  explicit SettingsBase(cxxopts::ParseResult o) : opts(std::move(o)) {}

  std::string getDatasetDirectory() { return opts["dataset"].as<std::string>(); }
  std::string getExperimentDirectory() {
    std::string dir = opts["export-dir"].as<std::string>();
    std::filesystem::create_directories(dir);
    return dir;
  }
  std::string getPreviewsDirectory() {
    std::string dir = getExperimentDirectory() + "/previews/";
    std::filesystem::create_directories(dir);
    return dir;
  }
  int getInputWidth() { return opts["width"].as<int>(); }
  int getInputHeight() { return opts["height"].as<int>(); }
  cv::Size getInputSize() { return cv::Size(getInputHeight(), getInputWidth()); }
  double getLearningRate() { return opts["learning-rate"].as<double>(); }
  int getTotalEpochs() { return opts["epochs"].as<int>(); }
  int getBatchSize() { return opts["batch-size"].as<int>(); }
  double getStepGamma() { return opts["step-gamma"].as<double>(); }
  int getStepSize() { return opts["step-size"].as<int>(); }
  int getAccumulationSteps() { return opts["accumulation-steps"].as<int>(); }
};
