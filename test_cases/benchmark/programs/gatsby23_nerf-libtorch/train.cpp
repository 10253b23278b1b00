// NeRF training on the synthetic "greek" scene: coarse and fine radiance
// fields rendered by hierarchical volume sampling, both trained with one Adam
// optimizer on the sum of their photometric MSE losses.
// Ray batches of 8192 are rendered in kNumChunks chunks (the fine pass over
// 192 samples per ray does not fit otherwise) and the fields run in half
// precision to halve their activation memory.
#include <torch/torch.h>

#include <filesystem>
#include <iostream>
#include <unordered_map>

#include "nerf_support.h"

using namespace nerf;

int main() {
    const auto log_dir = std::filesystem::absolute(std::filesystem::path("log"));
    std::cout << "logged at: " << log_dir.string() << std::endl;
    auto logger = Logger(log_dir);

    constexpr int kNumEpoch = 10;
    constexpr int64_t kBatchSize = 8192;
    constexpr int64_t kNumChunks = 4;
    const auto dataset_path = GetDatasetPath();
    auto dataset = Dataset(dataset_path).map(torch::data::transforms::Stack<>());
    const auto num_batches = static_cast<int64_t>(dataset.size().value()) / kBatchSize;

    const auto train_dataloader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        dataset, torch::data::DataLoaderOptions().batch_size(kBatchSize).workers(4));
    auto nerf = NeRF(512, 512, kBatchSize);

    nerf.RadianceFieldCoarse()->to(torch::kCUDA, torch::kHalf);
    nerf.RadianceFieldCoarse()->train();
    nerf.RadianceFieldFine()->to(torch::kCUDA, torch::kHalf);
    nerf.RadianceFieldFine()->train();

    std::vector<torch::Tensor> params = nerf.RadianceFieldCoarse()->parameters();
    for (auto& p : nerf.RadianceFieldFine()->parameters()) params.push_back(p);
    auto optimizer = torch::optim::Adam(params, torch::optim::AdamOptions().lr(3e-4).betas({0.9, 0.999}).eps(1e-4));

    for (auto epoch_i = 0; epoch_i < kNumEpoch; epoch_i++) {
        std::cout << "epoch: " << epoch_i << "\n";
        auto batch_i = 0;
        auto epoch_loss = AverageMeter<float>();
        for (auto& batch : *train_dataloader) {
            std::cout << batch_i << " / " << num_batches - 1 << "\n";
            auto rays = batch.data.to(torch::kCUDA, torch::kHalf).chunk(kNumChunks);
            auto colors = batch.target.to(torch::kCUDA, torch::kHalf).detach().chunk(kNumChunks);

            optimizer.zero_grad();
            float batch_loss = 0.0f;
            for (int64_t k = 0; k < kNumChunks; ++k) {
                auto o = rays[k].index({torch::indexing::Slice(), 0});
                auto d = rays[k].index({torch::indexing::Slice(), 1});
                auto params_k = VolumeRenderingWithRadianceFieldParams{
                    nerf.RadianceFieldCoarse(), nerf.RadianceFieldFine(), o, d, nerf.GetTNear(), nerf.GetTFar(),
                    nerf.GetNCoarse(), nerf.GetNFine(), nerf.GetBackColor()};
                auto [c_c, c_f] = VolumeRenderingWithRadianceField(params_k);
                auto loss = torch::nn::functional::mse_loss(c_c.to(torch::kFloat32), colors[k].to(torch::kFloat32)) +
                            torch::nn::functional::mse_loss(c_f.to(torch::kFloat32), colors[k].to(torch::kFloat32));
                (loss / kNumChunks).backward();
                batch_loss += loss.item<float>() / kNumChunks;
            }
            optimizer.step();
            batch_i++;
            std::cout << batch_loss << std::endl;
            epoch_loss.Add(batch_loss);
        }
        const auto loss = epoch_loss.GetAverage();
        std::cout << "loss: " << loss << std::endl;
        logger.Log({{LoggerData::kEpoch, epoch_i}, {LoggerData::kLoss, loss}});
        nerf.SaveModel(log_dir, epoch_i);
    }
    logger.Write();
    return 0;
}
