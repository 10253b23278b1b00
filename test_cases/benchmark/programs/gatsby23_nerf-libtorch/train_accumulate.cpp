// NeRF training with several ray batches per Adam update. The per-batch work
// (ray split, hierarchical rendering, loss, backward) lives in TrainStep; an
// AccumState carried across the whole run decides when the update happens.
#include <torch/torch.h>

#include <filesystem>
#include <iostream>
#include <unordered_map>

#include "nerf_support.h"

using namespace nerf;

struct AccumState {
    int64_t micro = 0;        // batches since the last update
    int64_t updates = 0;      // optimizer steps so far
    int64_t accum_steps = 1;  // batches per update
};

// Returns the unscaled loss of the batch.
float TrainStep(NeRF& nerf, torch::optim::Adam& optimizer, const torch::Tensor& data, const torch::Tensor& target,
                AccumState& state) {
    auto o = data.index({torch::indexing::Slice(), 0}).to(torch::kCUDA);
    auto d = data.index({torch::indexing::Slice(), 1}).to(torch::kCUDA);
    auto c = target.to(torch::kCUDA).detach();
    auto params = VolumeRenderingWithRadianceFieldParams{
        nerf.RadianceFieldCoarse(), nerf.RadianceFieldFine(), o, d, nerf.GetTNear(), nerf.GetTFar(),
        nerf.GetNCoarse(), nerf.GetNFine(), nerf.GetBackColor()};
    auto [c_c, c_f] = VolumeRenderingWithRadianceField(params);
    auto loss = torch::nn::functional::mse_loss(c_c, c) + torch::nn::functional::mse_loss(c_f, c);
    (loss / static_cast<double>(state.accum_steps)).backward();

    state.micro += 1;
    if (state.micro == state.accum_steps) {
        optimizer.step();
        state.micro = 0;
        state.updates += 1;
    }
    return loss.item<float>();
}

int main(int argc, char** argv) {
    const auto log_dir = std::filesystem::absolute(std::filesystem::path("log"));
    std::cout << "logged at: " << log_dir.string() << std::endl;
    auto logger = Logger(log_dir);

    constexpr int kNumEpoch = 10;
    constexpr int64_t kBatchSize = 2048;
    AccumState state;
    state.accum_steps = argc > 1 ? std::stoll(argv[1]) : 4;

    auto dataset = Dataset(GetDatasetPath()).map(torch::data::transforms::Stack<>());
    const auto train_dataloader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        dataset, torch::data::DataLoaderOptions().batch_size(kBatchSize).workers(4));
    auto nerf = NeRF(512, 512, kBatchSize);
    nerf.RadianceFieldCoarse()->to(torch::kCUDA);
    nerf.RadianceFieldCoarse()->train();
    nerf.RadianceFieldFine()->to(torch::kCUDA);
    nerf.RadianceFieldFine()->train();

    auto optimizer = torch::optim::Adam({nerf.RadianceFieldCoarse()->parameters(), nerf.RadianceFieldFine()->parameters()},
                                        torch::optim::AdamOptions().lr(3e-4).betas({0.9, 0.999}).eps(1e-7));
    optimizer.zero_grad();

    for (auto epoch_i = 0; epoch_i < kNumEpoch; epoch_i++) {
        std::cout << "epoch: " << epoch_i << "\n";
        auto epoch_loss = AverageMeter<float>();
        int64_t batch_i = 0;
        for (auto& batch : *train_dataloader) {
            const float loss = TrainStep(nerf, optimizer, batch.data, batch.target, state);
            epoch_loss.Add(loss);
            if (++batch_i % 100 == 0) {
                std::cout << batch_i << " batches, " << state.updates << " updates, loss " << loss << std::endl;
            }
        }
        const auto loss = epoch_loss.GetAverage();
        std::cout << "loss: " << loss << std::endl;
        logger.Log({{LoggerData::kEpoch, epoch_i}, {LoggerData::kLoss, loss}});
        nerf.SaveModel(log_dir, epoch_i);
    }
    logger.Write();
    return 0;
}
