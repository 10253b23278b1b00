// OpenSplat: 3D Gaussian splatting from a COLMAP/OpenSfM/nerfstudio project.
// Every optimizer step renders --views-per-step random training cameras and
// combines their gradients; densification statistics (afterTrain) are taken
// once per step from the combined screen-space gradients.
#include <torch/torch.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

#include "opensplat_support.h"

namespace fs = std::filesystem;

struct Args {
    std::string projectRoot = ".";
    std::string outputScene = "splat.ply";
    int saveEvery = -1;
    int numIters = 30000;
    int numDownscales = 2;
    int resolutionSchedule = 3000;
    int refineEvery = 100;
    int warmupLength = 500;
    float ssimWeight = 0.2f;
    int displayStep = 10;
    int viewsPerStep = 1;
    std::string resume;
};

static Args parseArgs(int argc, char* argv[]) {
    Args a;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i], v = argv[i + 1];
        if (k == "-n" || k == "--num-iters") a.numIters = std::stoi(v);
        else if (k == "-o" || k == "--output") a.outputScene = v;
        else if (k == "-s" || k == "--save-every") a.saveEvery = std::stoi(v);
        else if (k == "--ssim-weight") a.ssimWeight = std::stof(v);
        else if (k == "--views-per-step") a.viewsPerStep = std::stoi(v);
        else if (k == "--resume") a.resume = v;
        else a.projectRoot = v;
    }
    return a;
}

int main(int argc, char* argv[]) {
    const Args args = parseArgs(argc, argv);
    torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
    std::cout << "Using " << (device.is_cuda() ? "CUDA" : "CPU") << std::endl;

    try {
        InputData inputData;
        inputData.cameras.resize(120);
        std::vector<Camera> cams = inputData.cameras;

        Model model(inputData, cams.size(), args.numDownscales, args.resolutionSchedule, args.refineEvery,
                    args.warmupLength, args.numIters, device);

        std::vector<size_t> camIndices(cams.size());
        std::iota(camIndices.begin(), camIndices.end(), 0);
        InfiniteRandomIterator<size_t> camsIter(camIndices);

        size_t step = 1;
        if (!args.resume.empty()) step = model.loadPly(args.resume) + 1;

        model.optimizersZeroGrad();
        for (; step <= static_cast<size_t>(args.numIters); step++) {
            // several random cameras per update; each view weighs 1 / viewsPerStep
            float stepLoss = 0.0f;
            for (int v = 0; v < args.viewsPerStep; ++v) {
                Camera& cam = cams[camsIter.next()];
                torch::Tensor rgb = model.forward(cam, step);
                torch::Tensor gt = cam.getImage(model.getDownscaleFactor(step));
                gt = gt.to(device);
                torch::Tensor mainLoss = model.mainLoss(rgb, gt, args.ssimWeight);
                (mainLoss / static_cast<float>(args.viewsPerStep)).backward();
                stepLoss += mainLoss.item<float>() / args.viewsPerStep;
            }

            if (step % args.displayStep == 0) {
                const float percentage = static_cast<float>(step) / args.numIters;
                std::cout << "Step " << step << ": " << stepLoss << " (" << std::floor(percentage * 100) << "%)"
                          << std::endl;
            }

            model.optimizersStep();
            model.schedulersStep(step);
            model.afterTrain(step);
            model.optimizersZeroGrad();

            if (args.saveEvery > 0 && step % args.saveEvery == 0) {
                fs::path p(args.outputScene);
                model.save(p.replace_filename(fs::path(p.stem().string() + "_" + std::to_string(step) +
                                                       p.extension().string()))
                               .string(),
                           step);
            }
        }

        inputData.saveCameras((fs::path(args.outputScene).parent_path() / "cameras.json").string(), false);
        model.save(args.outputScene, args.numIters);
        std::cout << "Wrote " << args.outputScene << std::endl;
    } catch (const std::exception& e) {
        std::cerr << e.what() << std::endl;
        return 1;
    }
    return 0;
}
