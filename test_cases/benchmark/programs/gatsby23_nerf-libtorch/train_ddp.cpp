// NeRF, data-parallel: each rank draws its own ray batches; the gradients of
// both radiance fields are exchanged once per update through one coalesced
// all-reduce, averaged over the ranks and clipped before Adam steps.
// Every rank runs the same number of batches per epoch.
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <unordered_map>

#include "nerf_support.h"

using namespace nerf;

class RayTrainer {
public:
    RayTrainer(NeRF& nerf, c10::intrusive_ptr<c10d::ProcessGroup> pg, int64_t accum_steps)
        : nerf_(nerf), pg_(std::move(pg)), accum_steps_(accum_steps) {
        params_ = nerf.RadianceFieldCoarse()->parameters();
        for (auto& p : nerf.RadianceFieldFine()->parameters()) params_.push_back(p);
        optimizer_ = std::make_unique<torch::optim::Adam>(
            params_, torch::optim::AdamOptions().lr(5e-4).betas({0.9, 0.999}).eps(1e-7));
    }

    float TrainEpoch(torch::data::StatelessDataLoader<
                         torch::data::datasets::MapDataset<Dataset, torch::data::transforms::Stack<>>,
                         torch::data::samplers::RandomSampler>& loader,
                     int64_t batches_per_epoch) {
        auto epoch_loss = AverageMeter<float>();
        int64_t batch_i = 0;
        optimizer_->zero_grad();
        for (auto& batch : loader) {
            if (batch_i == batches_per_epoch) break;
            auto o = batch.data.index({torch::indexing::Slice(), 0});
            auto d = batch.data.index({torch::indexing::Slice(), 1});
            auto c = batch.target.detach();
            auto vr = VolumeRenderingWithRadianceFieldParams{
                nerf_.RadianceFieldCoarse(), nerf_.RadianceFieldFine(), o, d, nerf_.GetTNear(), nerf_.GetTFar(),
                nerf_.GetNCoarse(), nerf_.GetNFine(), nerf_.GetBackColor()};
            auto [c_c, c_f] = VolumeRenderingWithRadianceField(vr);
            auto loss = torch::nn::functional::mse_loss(c_c, c) + torch::nn::functional::mse_loss(c_f, c);
            (loss / static_cast<double>(accum_steps_)).backward();
            epoch_loss.Add(loss.item<float>());
            ++batch_i;

            const bool sync_now = batch_i % accum_steps_ == 0;
            if (sync_now) Update();
        }
        return epoch_loss.GetAverage();
    }

private:
    void Update() {
        std::vector<torch::Tensor> grads;
        for (auto& p : params_) {
            if (p.grad().defined()) grads.push_back(p.grad());
        }
        pg_->allreduce_coalesced(grads)->wait();
        for (auto& g : grads) g.div_(pg_->getSize());
        torch::nn::utils::clip_grad_norm_(params_, 0.1);
        optimizer_->step();
        optimizer_->zero_grad();
    }

    NeRF& nerf_;
    c10::intrusive_ptr<c10d::ProcessGroup> pg_;
    int64_t accum_steps_;
    std::vector<torch::Tensor> params_;
    std::unique_ptr<torch::optim::Adam> optimizer_;
};

int main() {
    const int rank = std::getenv("RANK") ? std::atoi(std::getenv("RANK")) : 0;
    const int world = std::getenv("WORLD_SIZE") ? std::atoi(std::getenv("WORLD_SIZE")) : 1;
    auto store = c10::make_intrusive<c10d::FileStore>("/tmp/nerf_ddp_store", world);
    auto opts = c10d::ProcessGroupGloo::Options::create();
    opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    c10::intrusive_ptr<c10d::ProcessGroup> pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world, opts);

    const auto log_dir = std::filesystem::absolute(std::filesystem::path("log"));
    auto logger = Logger(log_dir);
    constexpr int kNumEpoch = 10;
    constexpr int64_t kBatchSize = 1024;
    constexpr int64_t kAccumSteps = 4;
    constexpr int64_t kBatchesPerEpoch = kAccumSteps * 1000;

    auto dataset = Dataset(GetDatasetPath()).map(torch::data::transforms::Stack<>());
    auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        dataset, torch::data::DataLoaderOptions().batch_size(kBatchSize).workers(2));

    torch::manual_seed(0);
    auto nerf = NeRF(512, 512, kBatchSize);
    RayTrainer trainer(nerf, pg, kAccumSteps);
    for (int epoch_i = 0; epoch_i < kNumEpoch; ++epoch_i) {
        const float loss = trainer.TrainEpoch(*loader, kBatchesPerEpoch);
        if (rank == 0) {
            std::cout << "epoch " << epoch_i << " loss: " << loss << std::endl;
            logger.Log({{LoggerData::kEpoch, epoch_i}, {LoggerData::kLoss, loss}});
            nerf.SaveModel(log_dir, epoch_i);
        }
    }
    if (rank == 0) logger.Write();
    return 0;
}
