// NeRF training emulating the paper's 4096-ray batches with 1024-ray loader
// batches: kRaysPerStep / kBatchSize loader batches are rendered and
// backpropagated per Adam update. Logs the running PSNR of the fine field.
#include <torch/torch.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <unordered_map>

#include "nerf_support.h"

using namespace nerf;

static float Psnr(float mse) { return -10.0f * std::log10(std::max(mse, 1e-10f)); }

int main() {
    const auto log_dir = std::filesystem::absolute(std::filesystem::path("log"));
    auto logger = Logger(log_dir);

    constexpr int kNumEpoch = 10;
    constexpr int64_t kBatchSize = 1024;
    constexpr int64_t kRaysPerStep = 4096;
    constexpr int64_t kAccum = kRaysPerStep / kBatchSize;

    auto dataset = Dataset(GetDatasetPath()).map(torch::data::transforms::Stack<>());
    const auto train_dataloader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        dataset, torch::data::DataLoaderOptions().batch_size(kBatchSize).workers(4).drop_last(true));
    auto nerf = NeRF(512, 512, kBatchSize);
    for (auto rf : {nerf.RadianceFieldCoarse(), nerf.RadianceFieldFine()}) {
        rf->to(torch::kCUDA);
        rf->train();
    }
    auto optimizer = torch::optim::Adam({nerf.RadianceFieldCoarse()->parameters(), nerf.RadianceFieldFine()->parameters()},
                                        torch::optim::AdamOptions().lr(5e-4).betas({0.9, 0.999}).eps(1e-7));

    int64_t global_step = 0;
    for (auto epoch_i = 0; epoch_i < kNumEpoch; epoch_i++) {
        auto epoch_loss = AverageMeter<float>();
        auto it = train_dataloader->begin();
        const auto end = train_dataloader->end();
        while (it != end) {
            optimizer.zero_grad();
            float step_fine_mse = 0.0f;
            int64_t rendered = 0;
            for (int64_t k = 0; k < kAccum && it != end; ++k, ++it) {
                auto& batch = *it;
                auto o = batch.data.index({torch::indexing::Slice(), 0}).to(torch::kCUDA);
                auto d = batch.data.index({torch::indexing::Slice(), 1}).to(torch::kCUDA);
                auto c = batch.target.to(torch::kCUDA).detach();
                auto params = VolumeRenderingWithRadianceFieldParams{
                    nerf.RadianceFieldCoarse(), nerf.RadianceFieldFine(), o, d, nerf.GetTNear(), nerf.GetTFar(),
                    nerf.GetNCoarse(), nerf.GetNFine(), nerf.GetBackColor()};
                auto [c_c, c_f] = VolumeRenderingWithRadianceField(params);
                auto fine_mse = torch::nn::functional::mse_loss(c_f, c);
                auto loss = torch::nn::functional::mse_loss(c_c, c) + fine_mse;
                loss.backward();
                step_fine_mse += fine_mse.item<float>();
                rendered += 1;
            }
            optimizer.step();
            global_step += 1;

            const float mse = step_fine_mse / std::max<int64_t>(rendered, 1);
            epoch_loss.Add(mse);
            if (global_step % 500 == 0) {
                std::cout << "step " << global_step << " fine mse " << mse << " psnr " << Psnr(mse) << std::endl;
            }
        }
        const auto loss = epoch_loss.GetAverage();
        std::cout << "epoch " << epoch_i << " loss: " << loss << " psnr: " << Psnr(loss) << std::endl;
        logger.Log({{LoggerData::kEpoch, epoch_i}, {LoggerData::kLoss, loss}});
        nerf.SaveModel(log_dir, epoch_i);
    }
    logger.Write();
    return 0;
}
