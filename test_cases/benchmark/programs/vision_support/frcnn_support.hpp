// Local stand-ins for thisisi3/libtorch-faster-rcnn (json config, COCO dataset, detector, progress tracker).
#pragma once
#include <any>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include <torch/torch.h>

#define ASSERT(cond, msg) do { if (!(cond)) throw std::runtime_error(msg); } while (0)

// minimal stand-in for nlohmann::json: nested objects and typed leaves
class json {
public:
    json() = default;
    template <typename T> json(T v) : value_(std::move(v)) {}
    const json &operator[](const std::string &key) const {
        static const json empty;
        auto it = children_.find(key);
        return it == children_.end() ? empty : it->second;
    }
    json &operator[](const std::string &key) { return children_[key]; }
    template <typename T> T get() const { return std::any_cast<T>(value_); }
    using const_iterator = std::map<std::string, json>::const_iterator;
    const_iterator find(const std::string &key) const { return children_.find(key); }
    const_iterator end() const { return children_.end(); }
private:
    std::any value_;
    std::map<std::string, json> children_;
};

namespace frcnn {

struct ImgData {
    int64_t id = 0;
    std::vector<int64_t> ori_shape, img_shape, pad_shape;
    float scale_factor = 1.0;
    torch::Tensor img_tsr, gt_bboxes, gt_labels;
    void to(const torch::Device &device) {
        img_tsr = img_tsr.to(device);
        if (gt_bboxes.defined()) gt_bboxes = gt_bboxes.to(device);
        if (gt_labels.defined()) gt_labels = gt_labels.to(device);
    }
};

class CocoDataset : public torch::data::datasets::Dataset<CocoDataset, ImgData> {
public:
    CocoDataset(const std::string &img_dir, const std::string &ann_file, const json &transforms) : n_(4952) {}
    ImgData get(size_t index) override {
        ImgData d;
        d.id = (int64_t)index;
        d.img_tsr = torch::zeros({1, 3, 800, 800});
        d.gt_bboxes = torch::zeros({1, 4});
        d.gt_labels = torch::zeros({1}, torch::kLong);
        return d;
    }
    torch::optional<size_t> size() const override { return n_; }
private:
    size_t n_;
};

struct FasterRCNNImpl : torch::nn::Module {
    FasterRCNNImpl(const json &backbone, const json &neck, const json &rpn_head, const json &rcnn_head) {
        body = register_module("backbone", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).stride(2)));
        rpn = register_module("rpn_head", torch::nn::Conv2d(16, 15, 1));
        rcnn = register_module("rcnn_head", torch::nn::Linear(16, 81 * 5));
    }
    std::map<std::string, torch::Tensor> forward_train(torch::Tensor img_tsr, ImgData &img_data) {
        auto feat = torch::relu(body->forward(img_tsr));
        auto r = rpn->forward(feat);
        auto c = rcnn->forward(feat.mean({2, 3}));
        return {{"rpn_cls_loss", torch::sigmoid(r).mean()}, {"rpn_bbox_loss", r.abs().mean()},
                {"rcnn_cls_loss", c.pow(2).mean()}, {"rcnn_bbox_loss", c.abs().mean()}};
    }
    torch::nn::Conv2d body{nullptr}, rpn{nullptr};
    torch::nn::Linear rcnn{nullptr};
};
TORCH_MODULE(FasterRCNN);

// keeps iteration counts, smoothed losses and prints progress lines
class ProgressTracker {
public:
    ProgressTracker(int64_t total_epochs, int64_t iters_per_epoch) : _total_epochs(total_epochs), _iters_per_epoch(iters_per_epoch) {}
    void track_loss(const std::map<std::string, torch::Tensor> &losses) {
        for (auto &kv : losses) _losses[kv.first] = kv.second.item<float>();
    }
    void track_lr(float lr) { _lr = lr; }
    void next_iter() { _cur_iter++; }
    void next_epoch() { _cur_epoch++; }
    int64_t cur_iter() const { return _cur_iter; }
    int64_t cur_epoch() const { return _cur_epoch; }
    void report_progress(std::ostream &os) const {
        os << "epoch " << _cur_epoch << "/" << _total_epochs << " iter " << _cur_iter << " lr " << _lr;
        for (auto &kv : _losses) os << " " << kv.first << ": " << kv.second;
        os << std::endl;
    }
private:
    int64_t _total_epochs, _iters_per_epoch, _cur_iter = 0, _cur_epoch = 1;
    float _lr = 0;
    std::map<std::string, float> _losses;
};

}  // namespace frcnn
