// Local stand-ins for shershunov/ssd.libtorch (network, loss, dataset, metrics).
#pragma once
#include <tuple>
#include <utility>
#include <vector>
#include <torch/torch.h>

enum class PrecisionMode { FP32, FP16, BF16 };

struct Net : torch::nn::Module {
    explicit Net(int num_classes = 21, int num_anchors = 6) {
        backbone = register_module("backbone", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).stride(2).padding(1)));
        loc = register_module("loc", torch::nn::Conv2d(32, num_anchors * 4, 3));
        conf = register_module("conf", torch::nn::Conv2d(32, num_anchors * num_classes, 3));
    }
    std::pair<torch::Tensor, torch::Tensor> forward(torch::Tensor x) {
        auto f = torch::relu(backbone->forward(x));
        return {loc->forward(f).flatten(1), conf->forward(f).flatten(1)};
    }
    torch::nn::Conv2d backbone{nullptr}, loc{nullptr}, conf{nullptr};
};

// multibox loss stand-in (localisation + confidence, mean over the batch)
inline torch::Tensor ssd_loss(const torch::Tensor &boxes, const torch::Tensor &scores,
                              const std::vector<torch::Tensor> &targets, const torch::Tensor &anchors) {
    return torch::smooth_l1_loss(boxes, torch::zeros_like(boxes)) + torch::softplus(scores).mean();
}

class CustomDataset : public torch::data::datasets::Dataset<CustomDataset> {
public:
    CustomDataset(std::vector<torch::Tensor> &images, std::vector<torch::Tensor> &targets) : images_(images), targets_(targets) {}
    torch::data::Example<> get(size_t index) override { return {images_[index], targets_[index]}; }
    torch::optional<size_t> size() const override { return images_.size(); }
private:
    std::vector<torch::Tensor> images_, targets_;
};

// mAP@0.5 and mAP@0.5:0.95 on the validation images
inline std::pair<float, float> validate(Net &model, torch::Device &device, std::vector<torch::Tensor> &val_images,
                                        std::vector<torch::Tensor> &val_targets, int num_classes, int batch_size,
                                        const torch::Tensor &anchors) {
    torch::NoGradGuard no_grad;
    model.eval();
    float score = 0.0f;
    for (size_t i = 0; i < val_images.size(); i += batch_size) {
        auto out = model.forward(val_images[i].unsqueeze(0).to(device));
        score += torch::sigmoid(out.second).mean().item<float>();
    }
    model.train();
    const float m = val_images.empty() ? 0.0f : score / val_images.size();
    return {m, m / 2};
}

inline void save_model(const Net &model, const std::string &filename) {
    torch::serialize::OutputArchive archive;
    model.save(archive);
    archive.save_to(filename);
}
