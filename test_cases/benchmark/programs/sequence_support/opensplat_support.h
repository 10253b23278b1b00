// Stand-ins for OpenSplat's headers (model.hpp, optim_scheduler.hpp,
// input_data.hpp, utils.hpp): a Gaussian-splat model with one Adam optimizer
// per attribute, the exponential learning-rate scheduler of the means, the
// camera list and the infinite random camera iterator.
#pragma once

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#define RELEASE_SAFELY(__P) \
    do {                    \
        delete __P;         \
        __P = nullptr;      \
    } while (0)

class OptimScheduler {
public:
    OptimScheduler(torch::optim::Adam* opt, float lrFinal, int maxSteps)
        : opt(opt),
          lrInit(static_cast<torch::optim::AdamOptions&>(opt->param_groups()[0].options()).get_lr()),
          lrFinal(lrFinal),
          maxSteps(maxSteps) {}
    float getLearningRate(int step) {
        float t = (std::max)((std::min)(static_cast<float>(step) / static_cast<float>(maxSteps), 1.0f), 0.0f);
        return std::exp(std::log(lrInit) * (1.0f - t) + std::log(lrFinal) * t);
    }
    void step(int step) {
        static_cast<torch::optim::AdamOptions&>(opt->param_groups()[0].options()).set_lr(getLearningRate(step));
    }

private:
    torch::optim::Adam* opt;
    float lrInit;
    float lrFinal;
    int maxSteps;
};

struct Camera {
    int width = 64, height = 64;
    torch::Tensor camToWorld = torch::eye(4);
    std::string filePath;
    torch::Tensor getImage(int downscaleFactor) {
        return torch::rand({height / downscaleFactor, width / downscaleFactor, 3});
    }
};

struct InputData {
    std::vector<Camera> cameras;
    torch::Tensor points = torch::rand({1000, 3});
    void saveCameras(const std::string& /*filename*/, bool /*keepCrs*/) {}
};

template <typename T>
class InfiniteRandomIterator {
public:
    explicit InfiniteRandomIterator(const std::vector<T>& v) : v(v), engine(42) { shuffle(); }
    T next() {
        if (i >= v.size()) shuffle();
        return v[i++];
    }

private:
    void shuffle() {
        std::shuffle(v.begin(), v.end(), engine);
        i = 0;
    }
    std::vector<T> v;
    size_t i = 0;
    std::mt19937 engine;
};

class Model {
public:
    Model(const InputData& inputData, int numCameras, int numDownscales, int resolutionSchedule, int refineEvery,
          int warmupLength, int maxSteps, const torch::Device& device)
        : numCameras(numCameras), numDownscales(numDownscales), resolutionSchedule(resolutionSchedule),
          refineEvery(refineEvery), warmupLength(warmupLength), maxSteps(maxSteps), device(device) {
        const int64_t n = inputData.points.size(0);
        means = inputData.points.clone().to(device).requires_grad_();
        scales = torch::full({n, 3}, -3.0f, device).requires_grad_();
        quats = torch::nn::functional::normalize(torch::randn({n, 4}, device)).requires_grad_();
        featuresDc = torch::rand({n, 3}, device).requires_grad_();
        featuresRest = torch::zeros({n, 15, 3}, device).requires_grad_();
        opacities = torch::full({n, 1}, -2.0f, device).requires_grad_();
        setupOptimizers();
    }
    ~Model() { releaseOptimizers(); }

    void setupOptimizers() {
        releaseOptimizers();
        meansOpt = new torch::optim::Adam({means}, torch::optim::AdamOptions(0.00016));
        scalesOpt = new torch::optim::Adam({scales}, torch::optim::AdamOptions(0.005));
        quatsOpt = new torch::optim::Adam({quats}, torch::optim::AdamOptions(0.001));
        featuresDcOpt = new torch::optim::Adam({featuresDc}, torch::optim::AdamOptions(0.0025));
        featuresRestOpt = new torch::optim::Adam({featuresRest}, torch::optim::AdamOptions(0.000125));
        opacitiesOpt = new torch::optim::Adam({opacities}, torch::optim::AdamOptions(0.05));
        meansOptScheduler = new OptimScheduler(meansOpt, 0.0000016f, maxSteps);
    }
    void releaseOptimizers() {
        RELEASE_SAFELY(meansOpt);
        RELEASE_SAFELY(scalesOpt);
        RELEASE_SAFELY(quatsOpt);
        RELEASE_SAFELY(featuresDcOpt);
        RELEASE_SAFELY(featuresRestOpt);
        RELEASE_SAFELY(opacitiesOpt);
        RELEASE_SAFELY(meansOptScheduler);
    }

    // Toy splatting: every pixel sees an opacity-weighted colour mix.
    torch::Tensor forward(Camera& cam, int step) {
        const int f = getDownscaleFactor(step);
        const int h = cam.height / f, w = cam.width / f;
        xys = (means.index({torch::indexing::Slice(), torch::indexing::Slice(0, 2)}) * 1.0f);
        xys.retain_grad();
        radii = torch::exp(scales).amax(1);
        auto alpha = torch::sigmoid(opacities) * torch::sigmoid(quats.index({torch::indexing::Slice(), torch::indexing::Slice(0, 1)}));
        auto color = (alpha * torch::sigmoid(featuresDc + featuresRest.sum(1) + xys.sum(1, true))).sum(0) / alpha.sum();
        lastHeight = h;
        lastWidth = w;
        return color.view({1, 1, 3}).expand({h, w, 3});
    }
    torch::Tensor mainLoss(torch::Tensor& rgb, torch::Tensor& gt, float ssimWeight) {
        auto l1 = torch::abs(gt - rgb).mean();
        auto ssimLoss = 1.0f - torch::exp(-torch::pow(gt - rgb, 2).mean());
        return (1.0f - ssimWeight) * l1 + ssimWeight * ssimLoss;
    }

    void optimizersZeroGrad() {
        meansOpt->zero_grad();
        scalesOpt->zero_grad();
        quatsOpt->zero_grad();
        featuresDcOpt->zero_grad();
        featuresRestOpt->zero_grad();
        opacitiesOpt->zero_grad();
    }
    void optimizersStep() {
        meansOpt->step();
        scalesOpt->step();
        quatsOpt->step();
        featuresDcOpt->step();
        featuresRestOpt->step();
        opacitiesOpt->step();
    }
    void schedulersStep(int step) { meansOptScheduler->step(step); }
    int getDownscaleFactor(int step) {
        return std::pow(2, (std::max<int>)(numDownscales - step / resolutionSchedule, 0));
    }

    // Densification statistics from the screen-space gradients.
    void afterTrain(int step) {
        torch::NoGradGuard noGrad;
        if (!xys.grad().defined()) return;
        auto grads = torch::linalg_vector_norm(xys.grad().detach(), 2, {-1}, false, torch::kFloat32);
        if (!xysGradNorm.numel()) {
            xysGradNorm = grads;
            visCounts = torch::ones_like(xysGradNorm);
        } else {
            visCounts += 1;
            xysGradNorm += grads;
        }
        if (step % refineEvery == 0 && step > warmupLength) {
            xysGradNorm = torch::Tensor();
            visCounts = torch::Tensor();
        }
    }
    void save(const std::string& filename, int /*step*/) {
        torch::save({means, scales, quats, featuresDc, featuresRest, opacities}, filename);
    }
    int loadPly(const std::string& /*filename*/) { return 0; }

    torch::Tensor means, scales, quats, featuresDc, featuresRest, opacities;
    torch::optim::Adam* meansOpt = nullptr;
    torch::optim::Adam* scalesOpt = nullptr;
    torch::optim::Adam* quatsOpt = nullptr;
    torch::optim::Adam* featuresDcOpt = nullptr;
    torch::optim::Adam* featuresRestOpt = nullptr;
    torch::optim::Adam* opacitiesOpt = nullptr;
    OptimScheduler* meansOptScheduler = nullptr;
    torch::Tensor radii, xys, xysGradNorm, visCounts;
    int lastHeight = 0, lastWidth = 0;

private:
    int numCameras, numDownscales, resolutionSchedule, refineEvery, warmupLength, maxSteps;
    torch::Device device;
};
