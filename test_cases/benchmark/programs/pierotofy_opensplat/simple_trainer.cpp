// simple_trainer: fits random 3D Gaussians to a single test image, to check
// the projection/rasterisation kernels end to end. Large test images are
// rasterised in horizontal strips of --strip-rows rows so that the per-tile
// buffers fit; the strips of one iteration make one Adam update.
#include <torch/torch.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

using namespace torch::indexing;
namespace fs = std::filesystem;

static const double PI = 3.14159265358979323846;

// Stand-in for ProjectGaussiansCPU + RasterizeGaussiansCPU on a band of rows
// [y0, y0 + rows): isotropic splats, front-to-back alpha blending.
torch::Tensor rasterizeRows(const torch::Tensor& means, const torch::Tensor& scales, const torch::Tensor& quats,
                            const torch::Tensor& rgbs, const torch::Tensor& opacities, const torch::Tensor& viewMat,
                            float focal, int width, int height, int64_t y0, int64_t rows,
                            const torch::Tensor& background) {
    auto R = viewMat.index({Slice(0, 3), Slice(0, 3)});
    auto t = viewMat.index({Slice(0, 3), 3});
    auto pc = torch::matmul(means, R.t()) + t;
    auto z = pc.index({Slice(), 2}).clamp_min(1e-3);
    auto px = focal * pc.index({Slice(), 0}) / z + width / 2.0;
    auto py = focal * pc.index({Slice(), 1}) / z + height / 2.0;
    auto radius = focal * torch::exp(scales).mean(1) / z * quats.norm(2, 1);
    auto ys = torch::arange(y0, y0 + rows, means.options()).view({-1, 1, 1});
    auto xs = torch::arange(0, width, means.options()).view({1, -1, 1});
    auto d2 = (xs - px.view({1, 1, -1})).pow(2) + (ys - py.view({1, 1, -1})).pow(2);
    auto alpha = torch::sigmoid(opacities).view({1, 1, -1}) * torch::exp(-d2 / (2 * radius.pow(2).view({1, 1, -1}) + 1e-6));
    auto w = alpha / (alpha.sum(-1, true) + 1.0);
    auto color = torch::matmul(w, torch::sigmoid(rgbs));
    return color + (1 - w.sum(-1, true)) * background;
}

int main(int argc, char** argv) {
    int width = 256, height = 256, iterations = 1000, numPoints = 100000, stripRows = 64;
    float learningRate = 0.01f;
    std::string render;
    bool forceCpu = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--cpu") forceCpu = true;
        else if (i + 1 < argc && a == "--width") width = std::stoi(argv[++i]);
        else if (i + 1 < argc && a == "--height") height = std::stoi(argv[++i]);
        else if (i + 1 < argc && a == "--iters") iterations = std::stoi(argv[++i]);
        else if (i + 1 < argc && a == "--points") numPoints = std::stoi(argv[++i]);
        else if (i + 1 < argc && a == "--lr") learningRate = std::stof(argv[++i]);
        else if (i + 1 < argc && a == "--strip-rows") stripRows = std::stoi(argv[++i]);
        else if (i + 1 < argc && a == "--render") render = argv[++i];
    }
    torch::Device device = (!forceCpu && torch::cuda::is_available()) ? torch::kCUDA : torch::kCPU;

    // Test image: red top-left quadrant, green bottom-right.
    torch::Tensor gtImage = torch::ones({height, width, 3}, device);
    gtImage.index_put_({Slice(None, height / 2), Slice(None, width / 2), Slice()}, torch::tensor({1.0, 0.0, 0.0}, device));
    gtImage.index_put_({Slice(height / 2, None), Slice(width / 2, None), Slice()}, torch::tensor({0.0, 1.0, 0.0}, device));
    const float focal = 0.5f * width / std::tan(0.5f * PI / 2.0f);

    torch::manual_seed(0);
    torch::Tensor means = (2.0 * (torch::rand({numPoints, 3}) - 0.5)).to(device);
    torch::Tensor scales = torch::rand({numPoints, 3}).to(device);
    torch::Tensor rgbs = torch::rand({numPoints, 3}).to(device);
    torch::Tensor u = torch::rand({numPoints, 1}).to(device);
    torch::Tensor v = torch::rand({numPoints, 1}).to(device);
    torch::Tensor w = torch::rand({numPoints, 1}).to(device);
    torch::Tensor quats = torch::cat({torch::sqrt(1.0 - u) * torch::sin(2.0 * PI * v), torch::sqrt(1.0 - u) * torch::cos(2.0 * PI * v),
                                      torch::sqrt(u) * torch::sin(2.0 * PI * w), torch::sqrt(u) * torch::cos(2.0 * PI * w)},
                                     -1);
    torch::Tensor opacities = torch::ones({numPoints, 1}, device);
    torch::Tensor viewMat = torch::tensor({{1.0, 0.0, 0.0, 0.0}, {0.0, 1.0, 0.0, 0.0}, {0.0, 0.0, 1.0, 8.0}, {0.0, 0.0, 0.0, 1.0}},
                                          torch::TensorOptions().dtype(torch::kFloat32).device(device));
    torch::Tensor background = torch::zeros(gtImage.size(2), device);

    means.requires_grad_();
    scales.requires_grad_();
    quats.requires_grad_();
    rgbs.requires_grad_();
    opacities.requires_grad_();

    torch::optim::Adam optimizer({rgbs, means, scales, opacities, quats}, learningRate);
    torch::nn::MSELoss mseLoss;
    const double totalPixels = static_cast<double>(height) * width;

    for (int i = 0; i < iterations; i++) {
        optimizer.zero_grad();
        double loss = 0.0;
        std::vector<torch::Tensor> strips;
        // Strips may be shorter at the bottom; each one's MSE is weighted by
        // its share of the pixels, so the sum is the full-image MSE.
        for (int64_t y0 = 0; y0 < height; y0 += stripRows) {
            const int64_t rows = std::min<int64_t>(stripRows, height - y0);
            torch::Tensor outStrip = rasterizeRows(means, scales, quats, rgbs, opacities, viewMat, focal, width, height,
                                                   y0, rows, background);
            torch::Tensor gtStrip = gtImage.index({Slice(y0, y0 + rows)});
            torch::Tensor stripLoss = mseLoss(outStrip, gtStrip) * (rows * width / totalPixels);
            stripLoss.backward();
            loss += stripLoss.item<double>();
            if (!render.empty()) strips.push_back(outStrip.detach());
        }
        optimizer.step();

        std::cout << "Iteration " << (i + 1) << "/" << iterations << " Loss: " << loss << std::endl;
        if (!render.empty()) {
            torch::save(torch::cat(strips, 0).cpu(), (fs::path(render) / (std::to_string(i + 1) + ".pt")).string());
        }
    }
    return 0;
}
