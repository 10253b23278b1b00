// Local stand-ins for vietnhatthai/libtorch-cpp-dogs-vs-cats (image dataset, ConvNet).
#pragma once
#include <string>
#include <vector>
#include <torch/torch.h>

class Dataset : public torch::data::Dataset<Dataset> {
public:
    explicit Dataset(std::string data_path, std::vector<std::string> name_classes, int input_size, int num_images = 25000)
        : data_path(data_path), name_classes(name_classes), input_size(input_size) {
        for (int i = 0; i < num_images; i++) datasets.push_back({i, i % (int)name_classes.size()});
    }
    torch::data::Example<> get(size_t index) override {
        return {torch::zeros({3, input_size, input_size}), torch::tensor({(int64_t)datasets[index][1]})};
    }
    torch::optional<size_t> size() const override { return datasets.size(); }
private:
    std::vector<std::vector<int>> datasets;
    std::string data_path;
    std::vector<std::string> name_classes;
    int input_size;
};

class ConvNetImpl : public torch::nn::Module {
public:
    explicit ConvNetImpl(int64_t num_classes) {
        register_module("layer1", layer1);
        register_module("fc", fc = torch::nn::Linear(32, num_classes));
    }
    torch::Tensor forward(torch::Tensor x) {
        x = layer1->forward(x);
        return fc->forward(torch::adaptive_avg_pool2d(x, {1, 1}).flatten(1));
    }
private:
    torch::nn::Sequential layer1{
        torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 5)),
        torch::nn::BatchNorm2d(32),
        torch::nn::ReLU(),
        torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(2))};
    torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(ConvNet);
