// Stand-ins for the diffusion project's sampler, dataset and utility headers
// (models/ddpm.h, datasets/folder.h, utils/ema.h, utils/path.h, ...).
#pragma once

#include <torch/torch.h>

#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

struct SamplerOptions {
    TORCH_ARG(int, img_height) = 64;
    TORCH_ARG(int, img_width) = 64;
    TORCH_ARG(int, T) = 1000;
    TORCH_ARG(int, embedding_size) = 2;
    TORCH_ARG(int, stride) = 2;
    TORCH_ARG(float, eta) = 1.0;
};

// A denoiser wrapped with its noise schedule. p_x draws a time step and noise
// for a clean batch and returns (noisy images, steps, noise).
class Sampler : public torch::nn::Module {
public:
    virtual torch::Tensor forward(torch::Tensor x, torch::Tensor t_in) = 0;
    virtual std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> p_x(const torch::Tensor& x) = 0;
    virtual torch::Tensor sample(const std::string& path, int n) = 0;
    virtual std::shared_ptr<Sampler> copy() = 0;
    virtual std::shared_ptr<torch::nn::Module> get_model() = 0;
    virtual std::string name() = 0;
};

class DDPMImpl : public Sampler {
public:
    DDPMImpl(std::shared_ptr<torch::nn::Module> model, SamplerOptions options) : options_(options) {
        net_ = register_module("model", torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(4, 32, 3).padding(1)),
                                                              torch::nn::SiLU(),
                                                              torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 3, 3).padding(1))));
        (void)model;
        auto beta = torch::linspace(1e-4, 0.02, options.T());
        bar_alpha_ = torch::cumprod(1 - beta, 0);
    }
    torch::Tensor forward(torch::Tensor x, torch::Tensor t_in) override {
        auto t = t_in.to(x.dtype()).view({-1, 1, 1, 1}).expand({x.size(0), 1, x.size(2), x.size(3)});
        return net_->forward(torch::cat({x, t}, 1));
    }
    std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> p_x(const torch::Tensor& x) override {
        auto steps = torch::randint(options_.T(), {x.size(0)}, torch::TensorOptions().dtype(torch::kLong).device(x.device()));
        auto a = bar_alpha_.to(x.device()).index_select(0, steps).view({-1, 1, 1, 1});
        auto noise = torch::randn_like(x);
        return {a.sqrt() * x + (1 - a).sqrt() * noise, steps.to(x.dtype()) / options_.T(), noise};
    }
    torch::Tensor sample(const std::string& /*path*/, int n) override {
        torch::NoGradGuard ng;
        return torch::randn({n, 3, options_.img_height(), options_.img_width()});
    }
    std::shared_ptr<Sampler> copy() override {
        auto other = std::make_shared<DDPMImpl>(nullptr, options_);
        torch::NoGradGuard ng;
        auto src = named_parameters();
        for (auto& kv : other->named_parameters()) kv.value().copy_(src[kv.key()]);
        return other;
    }
    std::shared_ptr<torch::nn::Module> get_model() override { return net_.ptr(); }
    std::string name() override { return "ddpm"; }

private:
    SamplerOptions options_;
    torch::nn::Sequential net_{nullptr};
    torch::Tensor bar_alpha_;
};

// Image folder of RGB pictures scaled to [-1, 1].
class ImageFolderDataset : public torch::data::Dataset<ImageFolderDataset, torch::data::TensorExample> {
public:
    ImageFolderDataset(std::string img_dir, std::tuple<int, int> img_dim, std::string img_type = "jpg")
        : img_dir_(std::move(img_dir)), img_dim_(img_dim), img_type_(std::move(img_type)) {}
    torch::data::TensorExample get(size_t /*index*/) override {
        return {torch::rand({3, std::get<0>(img_dim_), std::get<1>(img_dim_)}) * 2 - 1};
    }
    torch::optional<size_t> size() const override { return 2048; }

private:
    std::string img_dir_;
    std::tuple<int, int> img_dim_;
    std::string img_type_;
};

// EMA: target <- beta * target + (1 - beta) * source.
inline void update_average(const std::shared_ptr<torch::nn::Module>& model_tgt,
                           const std::shared_ptr<torch::nn::Module>& model_src, double beta) {
    torch::NoGradGuard no_grad;
    auto param_dict_src = model_src->named_parameters();
    for (auto kv : model_tgt->named_parameters()) {
        auto p_tgt = kv.value();
        p_tgt.copy_(beta * p_tgt + (1. - beta) * param_dict_src[kv.key()]);
    }
}

inline char file_sepator() { return '/'; }
inline void makedirs(const char* /*path*/) {}
inline void save_state_dict(const std::shared_ptr<torch::nn::Module>& module, const std::string& path) {
    torch::serialize::OutputArchive archive;
    module->save(archive);
    archive.save_to(path);
}
