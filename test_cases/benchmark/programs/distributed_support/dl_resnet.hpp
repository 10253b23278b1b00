// Shared pieces of the distributed-dl examples (src/examples/resnet*.cpp):
// the CIFAR-10 binary reader and the small ResNet they train.
#pragma once

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <torch/torch.h>

class CIFAR10Dataset : public torch::data::Dataset<CIFAR10Dataset> {
  std::vector<torch::Tensor> images_;
  std::vector<uint8_t> labels_;

 public:
  explicit CIFAR10Dataset(const std::string& file_path) {
    std::ifstream file(file_path, std::ios::binary);
    if (!file.is_open()) throw std::runtime_error("Failed to open file");
    constexpr auto image_size = 3 * 32 * 32;
    constexpr auto record_size = image_size + 1;
    while (file.peek() != EOF) {
      std::vector<uint8_t> buffer(record_size);
      file.read(reinterpret_cast<char*>(buffer.data()), record_size);
      labels_.push_back(buffer[0]);
      images_.push_back(
          torch::from_blob(buffer.data() + 1, {3, 32, 32}, torch::kUInt8).clone());
    }
  }

  torch::data::Example<> get(size_t idx) override {
    return {images_[idx].to(torch::kFloat32).div(255.0),
            torch::tensor(labels_[idx], torch::kLong)};
  }

  torch::optional<size_t> size() const override { return images_.size(); }
};

struct ResNetBlockImpl : torch::nn::Module {
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::BatchNorm2d bn1{nullptr}, bn2{nullptr};
  torch::nn::Sequential downsample{nullptr};

  ResNetBlockImpl(int64_t inplanes, int64_t planes, int64_t stride = 1) {
    conv1 = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(inplanes, planes, 3)
                                                           .stride(stride).padding(1).bias(false)));
    bn1 = register_module("bn1", torch::nn::BatchNorm2d(planes));
    conv2 = register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(planes, planes, 3)
                                                           .stride(1).padding(1).bias(false)));
    bn2 = register_module("bn2", torch::nn::BatchNorm2d(planes));
    if (stride != 1 || inplanes != planes) {
      downsample = register_module(
          "downsample",
          torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(inplanes, planes, 1)
                                                      .stride(stride).bias(false)),
                                torch::nn::BatchNorm2d(planes)));
    }
  }

  torch::Tensor forward(torch::Tensor x) {
    auto out = torch::relu(bn1->forward(conv1->forward(x)));
    out = bn2->forward(conv2->forward(out));
    auto identity = downsample ? downsample->forward(x) : x;
    return torch::relu(out + identity);
  }
};
TORCH_MODULE(ResNetBlock);

struct ResNetImpl : torch::nn::Module {
  int64_t inplanes = 64;
  torch::nn::Conv2d conv1{nullptr};
  torch::nn::BatchNorm2d bn1{nullptr};
  torch::nn::Sequential layer1{nullptr}, layer2{nullptr};
  torch::nn::Linear fc{nullptr};

  explicit ResNetImpl(int64_t num_classes = 10) {
    conv1 = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, inplanes, 3)
                                                           .stride(1).padding(1).bias(false)));
    bn1 = register_module("bn1", torch::nn::BatchNorm2d(inplanes));
    layer1 = register_module("layer1", make_layer(64, 2, 1));
    layer2 = register_module("layer2", make_layer(128, 2, 2));
    fc = register_module("fc", torch::nn::Linear(128, num_classes));
  }

  torch::nn::Sequential make_layer(int64_t planes, int64_t blocks, int64_t stride) {
    torch::nn::Sequential layers;
    layers->push_back(ResNetBlock(inplanes, planes, stride));
    inplanes = planes;
    for (int64_t i = 1; i < blocks; i++) layers->push_back(ResNetBlock(inplanes, planes));
    return layers;
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(bn1->forward(conv1->forward(x)));
    x = layer2->forward(layer1->forward(x));
    x = torch::adaptive_avg_pool2d(x, {1, 1}).view({x.size(0), -1});
    return fc->forward(x);
  }
};
TORCH_MODULE(ResNet);
