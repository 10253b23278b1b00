// OpenSplat training loop with several camera views per update. Because the
// Gaussians are split/duplicated/culled between refinements, the gradient
// sum over the views of one update is kept in a name-keyed buffer owned by
// ViewGradientBuffer, created lazily with the parameter's current shape, and
// written back into the parameters' .grad right before the six Adam steps.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "opensplat_support.h"

class ViewGradientBuffer {
public:
    explicit ViewGradientBuffer(Model& model) : model_(model) {}

    // Add the current .grad of every Gaussian attribute.
    void gather() {
        for (auto& [name, param] : named()) {
            if (!param->grad().defined()) continue;
            auto g = param->grad().detach();
            auto it = sums_.find(name);
            if (it == sums_.end()) {
                sums_[name] = g.clone();
            } else {
                it->second.add_(g);
            }
        }
    }

    // Mean over `views` views into .grad; the buffer starts over afterwards.
    void write_back(int views) {
        for (auto& [name, param] : named()) {
            auto it = sums_.find(name);
            if (it == sums_.end()) continue;
            param->mutable_grad() = it->second / static_cast<float>(views);
        }
        sums_.clear();
    }

private:
    std::vector<std::pair<std::string, torch::Tensor*>> named() {
        return {{"means", &model_.means},           {"scales", &model_.scales},
                {"quats", &model_.quats},           {"featuresDc", &model_.featuresDc},
                {"featuresRest", &model_.featuresRest}, {"opacities", &model_.opacities}};
    }
    Model& model_;
    std::map<std::string, torch::Tensor> sums_;
};

int main(int argc, char* argv[]) {
    const int numIters = argc > 1 ? std::stoi(argv[1]) : 30000;
    const int viewsPerStep = argc > 2 ? std::stoi(argv[2]) : 4;
    const float ssimWeight = 0.2f;
    const int displayStep = 10;
    torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

    InputData inputData;
    inputData.cameras.resize(150);
    std::vector<Camera> cams = inputData.cameras;
    Model model(inputData, cams.size(), /*numDownscales=*/2, /*resolutionSchedule=*/3000, /*refineEvery=*/100,
                /*warmupLength=*/500, numIters, device);

    std::vector<size_t> camIndices(cams.size());
    std::iota(camIndices.begin(), camIndices.end(), 0);
    InfiniteRandomIterator<size_t> camsIter(camIndices);
    ViewGradientBuffer buffer(model);

    for (int step = 1; step <= numIters; step++) {
        float stepLoss = 0.0f;
        for (int v = 0; v < viewsPerStep; ++v) {
            Camera& cam = cams[camsIter.next()];
            torch::Tensor rgb = model.forward(cam, step);
            torch::Tensor gt = cam.getImage(model.getDownscaleFactor(step)).to(device);
            torch::Tensor mainLoss = model.mainLoss(rgb, gt, ssimWeight);
            mainLoss.backward();
            buffer.gather();
            stepLoss += mainLoss.item<float>() / viewsPerStep;
        }
        buffer.write_back(viewsPerStep);

        if (step % displayStep == 0) {
            std::cout << "Step " << step << ": " << stepLoss << " ("
                      << std::floor(100.0f * step / numIters) << "%)" << std::endl;
        }
        model.optimizersStep();
        model.schedulersStep(step);
        model.afterTrain(step);
        model.optimizersZeroGrad();
    }
    model.save("splat.ply", numIters);
    return 0;
}
