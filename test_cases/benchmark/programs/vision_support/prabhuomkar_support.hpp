// Local stand-ins for the tutorial headers of prabhuomkar/pytorch-cpp
// (datasets, transforms, networks, image saving).
#pragma once
#include <array>
#include <string>
#include <utility>
#include <vector>
#include <torch/torch.h>

namespace dataset {
class ImageFolderDataset : public torch::data::datasets::Dataset<ImageFolderDataset> {
public:
    enum class Mode { TRAIN, VAL };
    ImageFolderDataset(const std::string &root, Mode mode, std::vector<int64_t> image_load_size) : size_(mode == Mode::TRAIN ? 9469 : 3925) {}
    torch::data::Example<> get(size_t index) override { return {torch::zeros({3, 160, 160}), torch::tensor(int64_t(index % 10))}; }
    torch::optional<size_t> size() const override { return size_; }
private:
    size_t size_;
};
}  // namespace dataset

class CIFAR10 : public torch::data::datasets::Dataset<CIFAR10> {
public:
    enum class Mode { kTrain, kTest };
    explicit CIFAR10(const std::string &root, Mode mode = Mode::kTrain) : size_(mode == Mode::kTrain ? 50000 : 10000) {}
    torch::data::Example<> get(size_t index) override { return {torch::zeros({3, 32, 32}), torch::tensor(int64_t(index % 10))}; }
    torch::optional<size_t> size() const override { return size_; }
private:
    size_t size_;
};

namespace transform {
class ConstantPad : public torch::data::transforms::TensorTransform<torch::Tensor> {
public:
    explicit ConstantPad(int64_t padding) : padding_(padding) {}
    torch::Tensor operator()(torch::Tensor input) override { return torch::constant_pad_nd(input, {padding_, padding_, padding_, padding_}); }
private:
    int64_t padding_;
};
class RandomHorizontalFlip : public torch::data::transforms::TensorTransform<torch::Tensor> {
public:
    torch::Tensor operator()(torch::Tensor input) override { return torch::rand(1).item<double>() < 0.5 ? input.flip({-1}) : input; }
};
class RandomCrop : public torch::data::transforms::TensorTransform<torch::Tensor> {
public:
    explicit RandomCrop(const std::vector<int64_t> &size) : size_(size) {}
    torch::Tensor operator()(torch::Tensor input) override { return input.narrow(-2, 0, size_[0]).narrow(-1, 0, size_[1]); }
private:
    std::vector<int64_t> size_;
};
}  // namespace transform

struct ConvNetImpl : torch::nn::Module {
    explicit ConvNetImpl(int64_t num_classes) {
        layer1 = register_module("layer1", torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 5).stride(1).padding(2)), torch::nn::BatchNorm2d(16), torch::nn::ReLU(), torch::nn::MaxPool2d(2)));
        fc = register_module("fc", torch::nn::Linear(16, num_classes));
    }
    torch::Tensor forward(torch::Tensor x) { return fc->forward(torch::adaptive_avg_pool2d(layer1->forward(x), {1, 1}).flatten(1)); }
    torch::nn::Sequential layer1{nullptr};
    torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(ConvNet);

namespace resnet {
struct ResidualBlockImpl : torch::nn::Module {
    ResidualBlockImpl(int64_t in, int64_t out) { conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).padding(1))); }
    torch::Tensor forward(torch::Tensor x) { return torch::relu(conv->forward(x) + x); }
    torch::nn::Conv2d conv{nullptr};
};
TORCH_MODULE(ResidualBlock);

template <typename Block>
struct ResNetImpl : torch::nn::Module {
    ResNetImpl(const std::array<int64_t, 3> &layers, int64_t num_classes) {
        stem = register_module("stem", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1)));
        block = register_module("block", Block(16, 16));
        fc = register_module("fc", torch::nn::Linear(16, num_classes));
    }
    torch::Tensor forward(torch::Tensor x) { return fc->forward(torch::adaptive_avg_pool2d(block->forward(stem->forward(x)), {1, 1}).flatten(1)); }
    torch::nn::Conv2d stem{nullptr};
    Block block{nullptr};
    torch::nn::Linear fc{nullptr};
};
template <typename Block>
class ResNet : public torch::nn::ModuleHolder<ResNetImpl<Block>> {
public:
    using torch::nn::ModuleHolder<ResNetImpl<Block>>::ModuleHolder;
};
}  // namespace resnet

struct VAEOutput {
    torch::Tensor reconstruction;
    torch::Tensor mu;
    torch::Tensor log_var;
};

struct VAEImpl : torch::nn::Module {
    VAEImpl(int64_t image_size, int64_t h_dim, int64_t z_dim)
        : fc1(image_size, h_dim), fc2(h_dim, z_dim), fc3(h_dim, z_dim), fc4(z_dim, h_dim), fc5(h_dim, image_size) {
        register_module("fc1", fc1); register_module("fc2", fc2); register_module("fc3", fc3);
        register_module("fc4", fc4); register_module("fc5", fc5);
    }
    torch::Tensor decode(torch::Tensor z) { return torch::sigmoid(fc5->forward(torch::relu(fc4->forward(z)))); }
    VAEOutput forward(torch::Tensor x) {
        auto h = torch::relu(fc1->forward(x));
        auto mu = fc2->forward(h), log_var = fc3->forward(h);
        auto z = mu + torch::randn_like(mu) * torch::exp(log_var / 2);
        return {decode(z), mu, log_var};
    }
    torch::nn::Linear fc1, fc2, fc3, fc4, fc5;
};
TORCH_MODULE(VAE);

// writes a grid of images (stand-in for the tutorial's stb-based helper)
inline void save_image(const torch::Tensor &tensor, const std::string &file_path, int64_t nrow = 10, int64_t padding = 2) {
    auto grid = tensor.detach().to(torch::kCPU).clamp(0, 1).mul(255).to(torch::kUInt8);
    (void)grid; (void)file_path;
}
