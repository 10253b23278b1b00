// Local stand-ins for the helpers of koba-jon/pytorch_cpp (boost::program_options,
// progress bars, graph writer, image-folder datasets and loaders, networks).
#pragma once
#include <any>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>
#include <torch/torch.h>

namespace po {
struct variable_value {
    std::any v;
    template <typename T> const T &as() const { return std::any_cast<const T &>(v); }
};
using variables_map = std::map<std::string, variable_value>;
}  // namespace po

struct transforms_Compose {
    torch::Tensor operator()(const torch::Tensor &x) const { return x; }
};

namespace datasets {
struct ImageFolderWithPaths {
    ImageFolderWithPaths() = default;
    ImageFolderWithPaths(const std::string &root, std::vector<transforms_Compose> &tf) : root(root) {}
    size_t size() const { return n; }
    std::string root;
    size_t n = 0;
};
struct ImageFolderClassesWithPaths {
    ImageFolderClassesWithPaths() = default;
    ImageFolderClassesWithPaths(const std::string &root, std::vector<transforms_Compose> &tf, const std::vector<std::string> &names) : root(root) {}
    size_t size() const { return n; }
    std::string root;
    size_t n = 0;
};
struct ImageFolderSegmentWithPaths {
    ImageFolderSegmentWithPaths() = default;
    ImageFolderSegmentWithPaths(const std::string &in, const std::string &out, std::vector<transforms_Compose> &ti, std::vector<transforms_Compose> &to) : root(in) {}
    size_t size() const { return n; }
    std::string root;
    size_t n = 0;
};
struct ImageFolderBBWithPaths {
    ImageFolderBBWithPaths() = default;
    ImageFolderBBWithPaths(const std::string &img, const std::string &ids, std::vector<transforms_Compose> &tf) : root(img) {}
    size_t size() const { return n; }
    std::string root;
    size_t n = 0;
};
using ImageFolderPairWithPaths = ImageFolderSegmentWithPaths;
}  // namespace datasets

namespace DataLoader {
template <typename Dataset, typename Batch>
class Loader {
public:
    Loader() = default;
    Loader(Dataset &d, size_t batch_size, bool shuffle = false, size_t num_workers = 0, bool drop_last = false)
        : count_max((d.size() + batch_size - 1) / batch_size) {}
    bool operator()(Batch &batch) {
        if (count >= count_max) { count = 0; return false; }
        count++;
        return true;
    }
    size_t get_count_max() const { return count_max; }
private:
    size_t count = 0, count_max = 0;
};
using ImageFolderWithPaths = Loader<datasets::ImageFolderWithPaths, std::tuple<torch::Tensor, std::vector<std::string>>>;
using ImageFolderClassesWithPaths = Loader<datasets::ImageFolderClassesWithPaths, std::tuple<torch::Tensor, torch::Tensor, std::vector<std::string>>>;
using ImageFolderSegmentWithPaths = Loader<datasets::ImageFolderSegmentWithPaths, std::tuple<torch::Tensor, torch::Tensor, std::vector<std::string>, std::vector<std::string>>>;
using ImageFolderBBWithPaths = Loader<datasets::ImageFolderBBWithPaths, std::tuple<torch::Tensor, std::vector<std::tuple<torch::Tensor, torch::Tensor>>, std::vector<std::string>, std::vector<std::string>>>;
using ImageFolderPairWithPaths = ImageFolderSegmentWithPaths;
}  // namespace DataLoader

namespace visualizer {
class graph {
public:
    graph() = default;
    graph(const std::string &dir, const std::string &gname, const std::vector<std::string> &label) : gname(gname) {}
    void plot(const float base, const std::vector<float> &value) { last = value; }
private:
    std::string gname;
    std::vector<float> last;
};
inline void save_image(const torch::Tensor &image, const std::string &path, const std::pair<float, float> range = {0.0, 1.0}, const size_t cols = 8) {}
}  // namespace visualizer

namespace progress {
class display {
public:
    display(const size_t count_max_, const std::pair<size_t, size_t> epoch, const std::vector<std::string> loss_)
        : count_max(count_max_), sums(loss_.size(), 0.0f) {}
    void increment(const std::vector<float> &loss_value) {
        iters++;
        for (size_t i = 0; i < sums.size() && i < loss_value.size(); i++) sums[i] += loss_value[i];
    }
    size_t get_iters() const { return iters; }
    float get_ave(const size_t index) const { return iters ? sums[index] / iters : 0.0f; }
    std::vector<float> get_ave() const {
        std::vector<float> out;
        for (size_t i = 0; i < sums.size(); i++) out.push_back(get_ave(i));
        return out;
    }
private:
    size_t count_max, iters = 0;
    std::vector<float> sums;
};
class irregular {
public:
    void restart(const size_t pre, const size_t max) { done = pre; total = max; }
    void nab(const size_t now) { done = now; }
    std::string get_elap() const { return "0s"; }
    float get_sec_per() const { return 0.0f; }
    std::string get_rem() const { return "0s"; }
    std::string get_date() const { return ""; }
    std::string get_date_fin() const { return ""; }
private:
    size_t done = 0, total = 0;
};
inline std::string current_date() { return "1970/01/01 00:00:00"; }
inline std::string separator() { return std::string(60, '-'); }
inline std::string separator_center(const std::string &word) { return "----- " + word + " -----"; }
}  // namespace progress

inline void weights_init(torch::nn::Module &m) {}

// ---- networks (small stand-ins with the original class names) ----
struct ConvolutionalAutoEncoderImpl : torch::nn::Module {
    torch::nn::Sequential encoder{nullptr}, decoder{nullptr};
    explicit ConvolutionalAutoEncoderImpl(po::variables_map &vm) {
        encoder = register_module("encoder", torch::nn::Sequential(torch::nn::Conv2d(3, 16, 3), torch::nn::ReLU()));
        decoder = register_module("decoder", torch::nn::Sequential(torch::nn::ConvTranspose2d(16, 3, 3), torch::nn::Tanh()));
    }
    torch::Tensor forward(torch::Tensor x) { return decoder->forward(encoder->forward(x)); }
};
TORCH_MODULE(ConvolutionalAutoEncoder);

struct ClassifierImpl : torch::nn::Module {
    torch::nn::Conv2d conv{nullptr};
    torch::nn::Linear fc{nullptr};
    ClassifierImpl(size_t nc, size_t class_num) {
        conv = register_module("conv", torch::nn::Conv2d(nc, 16, 3));
        fc = register_module("fc", torch::nn::Linear(16, class_num));
    }
    torch::Tensor forward(torch::Tensor x) {
        x = torch::relu(conv->forward(x));
        x = torch::adaptive_avg_pool2d(x, {1, 1}).flatten(1);
        return fc->forward(x);
    }
};
TORCH_MODULE(Classifier);
using MC_ResNet = Classifier;
using ViT = Classifier;

struct SegmentNetImpl : torch::nn::Module {
    torch::nn::Conv2d conv{nullptr};
    SegmentNetImpl(size_t nc, size_t class_num) { conv = register_module("conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(nc, class_num, 3).padding(1))); }
    torch::Tensor forward(torch::Tensor x) { return conv->forward(x); }
};
TORCH_MODULE(SegmentNet);
using SegNet = SegmentNet;
using UNet = SegmentNet;

struct DetectorNetImpl : torch::nn::Module {
    torch::nn::Conv2d head{nullptr};
    DetectorNetImpl(size_t nc, size_t out) { head = register_module("head", torch::nn::Conv2d(nc, out, 1)); }
    std::vector<torch::Tensor> forward(torch::Tensor x) { auto y = head->forward(x); return {y, y, y}; }
};
TORCH_MODULE(DetectorNet);
using YOLOv3 = DetectorNet;
using YOLOv8 = DetectorNet;

struct MaskedAutoEncoderImpl : torch::nn::Module {
    torch::nn::Linear enc{nullptr}, dec{nullptr};
    MaskedAutoEncoderImpl(size_t patch_dim, size_t dim) {
        enc = register_module("enc", torch::nn::Linear(patch_dim, dim));
        dec = register_module("dec", torch::nn::Linear(dim, patch_dim));
    }
    std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> forward(torch::Tensor image) {
        auto patch = image.flatten(2);
        auto mask = torch::rand_like(patch.select(2, 0)).gt(0.75).to(torch::kFloat);
        auto out = dec->forward(torch::gelu(enc->forward(patch)));
        return {patch, out, mask};
    }
};
TORCH_MODULE(MaskedAutoEncoder);

struct VariationalAutoEncoderImpl : torch::nn::Module {
    torch::nn::Linear enc{nullptr}, mu{nullptr}, logvar{nullptr}, dec{nullptr};
    VariationalAutoEncoderImpl(size_t in, size_t nz) {
        enc = register_module("enc", torch::nn::Linear(in, 256));
        mu = register_module("mu", torch::nn::Linear(256, nz));
        logvar = register_module("logvar", torch::nn::Linear(256, nz));
        dec = register_module("dec", torch::nn::Linear(nz, in));
    }
    std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> forward(torch::Tensor x) {
        auto h = torch::relu(enc->forward(x.flatten(1)));
        auto m = mu->forward(h), lv = logvar->forward(h);
        auto z = m + torch::randn_like(m) * torch::exp(0.5 * lv);
        return {torch::tanh(dec->forward(z)).view_as(x), m, lv};
    }
};
TORCH_MODULE(VariationalAutoEncoder);
