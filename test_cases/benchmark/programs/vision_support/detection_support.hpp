// Local stand-ins for AllentDan/LibtorchDetection (YOLOv4-tiny body and loss, dataset, file helpers).
#pragma once
#include <fstream>
#include <string>
#include <vector>
#include <torch/torch.h>

inline bool does_exist(const std::string &path) { std::ifstream f(path); return f.good(); }
inline void load_det_data_from_folder(std::string folder, std::string image_type, std::vector<std::string> &list_images, std::vector<std::string> &list_labels) {
    list_images.push_back(folder + "/0" + image_type);
    list_labels.push_back(folder + "/0.xml");
}

class DetDataset : public torch::data::Dataset<DetDataset> {
public:
    DetDataset(std::vector<std::string> images, std::vector<std::string> labels, std::vector<std::string> class_names,
               bool isTrain = true, int width_ = 416, int height_ = 416)
        : list_images(images), width(width_), height(height_) {}
    torch::data::Example<> get(size_t index) override { return {torch::zeros({3, height, width}), torch::zeros({1, 5})}; }
    torch::optional<size_t> size() const override { return list_images.size(); }
private:
    std::vector<std::string> list_images;
    int width, height;
};

struct YoloBody_tinyImpl : torch::nn::Module {
    YoloBody_tinyImpl(int num_anchors, int num_classes) {
        backbone = register_module("backbone", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 32, 3).stride(2).padding(1)));
        yolo_head = register_module("yolo_head", torch::nn::Conv2d(32, num_anchors * (5 + num_classes), 1));
    }
    std::vector<torch::Tensor> forward(torch::Tensor x) {
        auto f = torch::leaky_relu(backbone->forward(x), 0.1);
        return {yolo_head->forward(f), yolo_head->forward(torch::max_pool2d(f, 2))};
    }
    torch::nn::Conv2d backbone{nullptr}, yolo_head{nullptr};
};
TORCH_MODULE(YoloBody_tiny);

// returns {loss, num_pos}
struct YOLOLossImpl : torch::nn::Module {
    YOLOLossImpl(torch::Tensor anchors_, int num_classes, int img_size[], float label_smooth = 0,
                 torch::Device device = torch::Device(torch::kCPU), bool normalize = true)
        : anchors(anchors_), num_classes(num_classes) {}
    std::vector<torch::Tensor> forward(torch::Tensor input, std::vector<torch::Tensor> targets) {
        auto loss = input.pow(2).sum();
        auto num_pos = torch::full({}, (double)std::max<size_t>(targets.size(), 1), input.options());
        return {loss, num_pos};
    }
    torch::Tensor anchors;
    int num_classes;
};
