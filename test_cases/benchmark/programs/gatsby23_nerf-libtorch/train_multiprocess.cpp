// NeRF on several processes: every rank renders its own random rays, and the
// coarse/fine field gradients are averaged over a Gloo process group before
// the Adam update. Each rank accumulates kAccumSteps ray batches per update.
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <unordered_map>

#include "nerf_support.h"

using namespace nerf;

static int GetWorldSize() {
    const char* v = std::getenv("WORLD_SIZE");
    return v ? std::atoi(v) : 1;
}

// Mean over the ranks of every gradient of both fields.
static void AverageGradients(std::vector<torch::Tensor>& params, c10d::ProcessGroup& pg) {
    for (auto& p : params) {
        if (!p.grad().defined()) continue;
        std::vector<torch::Tensor> bucket{p.grad()};
        pg.allreduce(bucket)->wait();
        p.grad().div_(pg.getSize());
    }
}

int main() {
    const int rank = std::getenv("RANK") ? std::atoi(std::getenv("RANK")) : 0;
    const int world_size = GetWorldSize();
    auto store = c10::make_intrusive<c10d::FileStore>("/tmp/nerf_store", world_size);
    auto pg_options = c10d::ProcessGroupGloo::Options::create();
    pg_options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size, pg_options);

    const auto log_dir = std::filesystem::absolute(std::filesystem::path("log"));
    auto logger = Logger(log_dir);
    constexpr int kNumEpoch = 10;
    constexpr int64_t kBatchSize = 1024;
    constexpr int64_t kAccumSteps = 4;
    constexpr int64_t kBatchesPerEpoch = 4000;

    auto dataset = Dataset(GetDatasetPath()).map(torch::data::transforms::Stack<>());
    const auto train_dataloader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        dataset, torch::data::DataLoaderOptions().batch_size(kBatchSize).workers(2));

    torch::manual_seed(0);
    auto nerf = NeRF(512, 512, kBatchSize);
    std::vector<torch::Tensor> params = nerf.RadianceFieldCoarse()->parameters();
    for (auto& p : nerf.RadianceFieldFine()->parameters()) params.push_back(p);
    auto optimizer = torch::optim::Adam(params, torch::optim::AdamOptions().lr(5e-4).betas({0.9, 0.999}).eps(1e-7));

    for (auto epoch_i = 0; epoch_i < kNumEpoch; epoch_i++) {
        auto epoch_loss = AverageMeter<float>();
        int64_t batch_i = 0;
        optimizer.zero_grad();
        for (auto& batch : *train_dataloader) {
            if (batch_i == kBatchesPerEpoch) break;
            auto o = batch.data.index({torch::indexing::Slice(), 0});
            auto d = batch.data.index({torch::indexing::Slice(), 1});
            auto c = batch.target.detach();
            auto vr = VolumeRenderingWithRadianceFieldParams{
                nerf.RadianceFieldCoarse(), nerf.RadianceFieldFine(), o, d, nerf.GetTNear(), nerf.GetTFar(),
                nerf.GetNCoarse(), nerf.GetNFine(), nerf.GetBackColor()};
            auto [c_c, c_f] = VolumeRenderingWithRadianceField(vr);
            auto loss = torch::nn::functional::mse_loss(c_c, c) + torch::nn::functional::mse_loss(c_f, c);
            (loss / kAccumSteps).backward();
            epoch_loss.Add(loss.item<float>());
            batch_i++;

            if (batch_i % kAccumSteps == 0) {
                AverageGradients(params, *pg);
                // the update uses the mean over all ranks
                for (auto& p : params) {
                    if (p.grad().defined()) p.grad().div_(world_size);
                }
                optimizer.step();
                optimizer.zero_grad();
            }
        }
        const auto loss = epoch_loss.GetAverage();
        if (rank == 0) {
            std::cout << "epoch " << epoch_i << " loss: " << loss << std::endl;
            logger.Log({{LoggerData::kEpoch, epoch_i}, {LoggerData::kLoss, loss}});
            nerf.SaveModel(log_dir, epoch_i);
        }
    }
    if (rank == 0) logger.Write();
    return 0;
}
