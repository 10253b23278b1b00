// Stand-ins for the nerf-libtorch project's headers: radiance fields, the NeRF
// holder, hierarchical volume rendering, the ray dataset and the logger.
#pragma once

#include <torch/torch.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <variant>
#include <vector>

namespace nerf {

struct RadianceFieldImpl : torch::nn::Module {
    RadianceFieldImpl(int64_t length_x = 10, int64_t length_dim = 4) : length_x_(length_x), length_dim_(length_dim) {
        const int64_t in_x = 3 + 6 * length_x, in_d = 3 + 6 * length_dim;
        trunk = register_module("trunk", torch::nn::Sequential(torch::nn::Linear(in_x, 256), torch::nn::ReLU(),
                                                               torch::nn::Linear(256, 256), torch::nn::ReLU()));
        sigma = register_module("sigma", torch::nn::Linear(256, 1));
        color = register_module("color", torch::nn::Sequential(torch::nn::Linear(256 + in_d, 128), torch::nn::ReLU(),
                                                               torch::nn::Linear(128, 3), torch::nn::Sigmoid()));
    }
    static torch::Tensor encode(const torch::Tensor& p, int64_t L) {
        std::vector<torch::Tensor> out{p};
        for (int64_t i = 0; i < L; ++i) {
            out.push_back(torch::sin(std::pow(2.0, i) * p));
            out.push_back(torch::cos(std::pow(2.0, i) * p));
        }
        return torch::cat(out, -1);
    }
    // x, d: [n, 3] -> (rgb [n, 3], sigma [n, 1])
    std::tuple<torch::Tensor, torch::Tensor> forward(const torch::Tensor& x, const torch::Tensor& d) {
        auto h = trunk->forward(encode(x, length_x_));
        auto s = torch::relu(sigma->forward(h));
        auto c = color->forward(torch::cat({h, encode(d, length_dim_)}, -1));
        return {c, s};
    }
    int64_t length_x_, length_dim_;
    torch::nn::Sequential trunk{nullptr}, color{nullptr};
    torch::nn::Linear sigma{nullptr};
};
TORCH_MODULE(RadianceField);

class NeRF {
public:
    NeRF(int width, int height, int64_t batch_size, float t_n = 0.0f, float t_f = 2.5f, int64_t length_x = 10,
         int64_t length_dim = 4, const std::array<float, 3>& c_bg = {1.0f, 1.0f, 1.0f})
        : c_bg_(c_bg), width_(width), height_(height), t_n_(t_n), t_f_(t_f), batch_size_(batch_size),
          rf_c_(length_x, length_dim), rf_f_(length_x, length_dim) {}
    RadianceField RadianceFieldCoarse() { return rf_c_; }
    RadianceField RadianceFieldFine() { return rf_f_; }
    float GetTFar() const { return t_f_; }
    float GetTNear() const { return t_n_; }
    int64_t GetNCoarse() const { return kNc; }
    int64_t GetNFine() const { return kNf; }
    std::array<float, 3>& GetBackColor() { return c_bg_; }
    void SaveModel(const std::filesystem::path& log_dir, int epoch) {
        torch::save(rf_c_, (log_dir / ("coarse_" + std::to_string(epoch) + ".pth")).string());
        torch::save(rf_f_, (log_dir / ("fine_" + std::to_string(epoch) + ".pth")).string());
    }

private:
    static constexpr int64_t kNc = 64;
    static constexpr int64_t kNf = 128;
    std::array<float, 3> c_bg_;
    int width_, height_;
    float t_n_, t_f_;
    int64_t batch_size_;
    RadianceField rf_c_;
    RadianceField rf_f_;
};

struct VolumeRenderingWithRadianceFieldParams {
    RadianceField module_c;
    RadianceField module_f;
    torch::Tensor& o;
    torch::Tensor& d;
    float t_n;
    float t_f;
    int64_t n_c;
    int64_t n_f;
    std::array<float, 3>& c_bg;
};

inline torch::Tensor Render(RadianceField& rf, const torch::Tensor& o, const torch::Tensor& d, const torch::Tensor& t,
                            const std::array<float, 3>& c_bg) {
    const int64_t n = o.size(0), s = t.size(1);
    auto x = o.unsqueeze(1) + t.unsqueeze(2) * d.unsqueeze(1);
    auto dirs = d.unsqueeze(1).expand({n, s, 3});
    auto [rgb, sigma] = rf->forward(x.reshape({-1, 3}), dirs.reshape({-1, 3}));
    rgb = rgb.view({n, s, 3});
    sigma = sigma.view({n, s});
    auto delta = torch::cat({t.narrow(1, 1, s - 1) - t.narrow(1, 0, s - 1), torch::full({n, 1}, 1e10, t.options())}, 1);
    auto alpha = 1 - torch::exp(-sigma * delta);
    auto trans = torch::cumprod(torch::cat({torch::ones({n, 1}, t.options()), 1 - alpha + 1e-10}, 1), 1).narrow(1, 0, s);
    auto w = (trans * alpha).unsqueeze(2);
    auto bg = torch::tensor({c_bg[0], c_bg[1], c_bg[2]}, o.options());
    return (w * rgb).sum(1) + (1 - w.sum(1)) * bg;
}

// Coarse render on stratified samples, fine render on coarse + extra samples.
inline std::tuple<torch::Tensor, torch::Tensor> VolumeRenderingWithRadianceField(
    VolumeRenderingWithRadianceFieldParams& p) {
    const int64_t n = p.o.size(0);
    auto t_c = torch::linspace(p.t_n, p.t_f, p.n_c, p.o.options()).expand({n, p.n_c}) +
               torch::rand({n, p.n_c}, p.o.options()) * (p.t_f - p.t_n) / p.n_c;
    auto c_c = Render(p.module_c, p.o, p.d, t_c, p.c_bg);
    auto t_extra = torch::rand({n, p.n_f}, p.o.options()) * (p.t_f - p.t_n) + p.t_n;
    auto t_f = std::get<0>(torch::sort(torch::cat({t_c, t_extra}, 1), 1));
    auto c_f = Render(p.module_f, p.o, p.d, t_f, p.c_bg);
    return {c_c, c_f};
}

// Rays of all training images: data [N, 2, 3] (origin, direction), target [N, 3].
class Dataset : public torch::data::Dataset<Dataset> {
public:
    explicit Dataset(const std::filesystem::path& /*path*/) {}
    torch::data::Example<> get(size_t /*index*/) override {
        return {torch::stack({torch::zeros({3}), torch::nn::functional::normalize(torch::randn({1, 3})).squeeze(0)}),
                torch::rand({3})};
    }
    torch::optional<size_t> size() const override { return 125566976; }
};

template <typename T>
class AverageMeter {
public:
    void Add(T v) { sum_ += v; ++count_; }
    T GetAverage() const { return count_ ? sum_ / count_ : T(0); }

private:
    T sum_ = 0;
    int64_t count_ = 0;
};

enum class LoggerData : int { kEpoch = 0, kLoss, kCount };
typedef std::variant<int, float, std::string> LoggerType;

class Logger {
public:
    explicit Logger(const std::filesystem::path& log_dir) : log_dir_(log_dir) {}
    void Log(const std::unordered_map<LoggerData, LoggerType>& data) { data_.push_back(data); }
    void Write() {
        std::ofstream out(log_dir_ / "log.csv");
        out << "epoch,loss\n";
        for (auto& row : data_) {
            out << std::get<int>(row.at(LoggerData::kEpoch)) << "," << std::get<float>(row.at(LoggerData::kLoss)) << "\n";
        }
    }

private:
    std::filesystem::path log_dir_;
    std::vector<std::unordered_map<LoggerData, LoggerType>> data_;
};

}  // namespace nerf

inline std::filesystem::path GetDatasetPath() {
    return std::filesystem::path("data") / "synthetic_scenes" / "train" / "greek";
}
