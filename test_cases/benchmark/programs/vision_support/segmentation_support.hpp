// Local stand-ins for AllentDan/LibtorchSegmentation (train tricks, dataset, file helpers, FPN model).
#pragma once
#include <string>
#include <vector>
#include <torch/torch.h>

struct trainTricks {
    unsigned int freeze_epochs = 0;
    std::vector<unsigned int> decay_epochs = {0};
    float dice_ce_ratio = 0.5;
    float horizontal_flip_prob = 0;
    float vertical_flip_prob = 0;
    float scale_rotate_prob = 0;
    // added by users of the trainer
    int accumulate_steps = 1;
    float clip_grad_norm = 0;
};

inline char file_sepator() { return '/'; }
inline std::string replace_all_distinct(std::string str, const std::string &old_value, const std::string &new_value) {
    for (std::string::size_type pos = 0; (pos = str.find(old_value, pos)) != std::string::npos; pos += new_value.length())
        str.replace(pos, old_value.length(), new_value);
    return str;
}
inline void load_seg_data_from_folder(std::string folder, std::string image_type, std::vector<std::string> &list_images, std::vector<std::string> &list_labels) {
    list_images.push_back(folder + "/0" + image_type);
    list_labels.push_back(folder + "/0.json");
}

class SegDataset : public torch::data::Dataset<SegDataset> {
public:
    SegDataset(int resize_width, int resize_height, std::vector<std::string> list_images, std::vector<std::string> list_labels,
               std::vector<std::string> name_list, trainTricks tricks, bool isTrain = false)
        : width(resize_width), height(resize_height), list_images(list_images) {}
    torch::data::Example<> get(size_t index) override {
        return {torch::zeros({3, height, width}), torch::zeros({1, height, width})};
    }
    torch::optional<size_t> size() const override { return list_images.size(); }
private:
    int width, height;
    std::vector<std::string> list_images;
};

inline torch::Tensor DiceLoss(torch::Tensor prediction, torch::Tensor target, int num_class) {
    auto target_onehot = torch::zeros_like(prediction);
    target_onehot.scatter_(1, target, 1);
    auto prediction_roi = prediction.slice(1, 1, num_class, 1);
    auto target_roi = target_onehot.slice(1, 1, num_class, 1);
    auto intersection = (prediction_roi * target_roi).sum();
    auto union_ = prediction_roi.sum() + target_roi.sum() - intersection;
    return 1 - (intersection + 0.0001) / (union_ + 0.0001);
}
inline torch::Tensor CELoss(torch::Tensor prediction, torch::Tensor target) {
    return torch::nll_loss2d(torch::log_softmax(prediction, 1), target);
}

struct FPNImpl : torch::nn::Module {
    FPNImpl(int num_classes, std::string encoder_name, std::string pretrained_path) {
        encoder = register_module("encoder", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1)));
        segmentation_head = register_module("segmentation_head", torch::nn::Conv2d(16, num_classes, 1));
    }
    torch::Tensor forward(torch::Tensor x) { return segmentation_head->forward(torch::relu(encoder->forward(x))); }
    torch::nn::Conv2d encoder{nullptr}, segmentation_head{nullptr};
};
TORCH_MODULE(FPN);
