// NeRF trainer class: wraps the coarse/fine radiance fields, one Adam
// optimizer and an exponential learning-rate decay (0.1x over 250k updates,
// as in the original NeRF), and trains with `rays_per_update` rays per Adam
// update gathered from several loader batches. With the larger effective
// batch the base rate is raised by sqrt(accumulation) (square-root scaling
// for Adam).
#include <torch/torch.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <unordered_map>

#include "nerf_support.h"

using namespace nerf;

class ExponentialDecay : public torch::optim::LRScheduler {
public:
    ExponentialDecay(torch::optim::Optimizer& optimizer, double base_lr, double decay_steps)
        : torch::optim::LRScheduler(optimizer), base_lr_(base_lr), decay_steps_(decay_steps) {}

private:
    std::vector<double> get_lrs() override {
        const double lr = base_lr_ * std::pow(0.1, step_count_ / decay_steps_);
        return std::vector<double>(get_current_lrs().size(), lr);
    }
    double base_lr_;
    double decay_steps_;
};

class NeRFTrainer {
public:
    NeRFTrainer(NeRF& nerf, int64_t accumulation, double base_lr)
        : nerf_(nerf),
          accumulation_(accumulation),
          lr_(base_lr * std::sqrt(static_cast<double>(accumulation))),
          optimizer_({nerf.RadianceFieldCoarse()->parameters(), nerf.RadianceFieldFine()->parameters()},
                     torch::optim::AdamOptions(lr_).betas({0.9, 0.999}).eps(1e-7)),
          scheduler_(optimizer_, lr_, 250000.0) {
        optimizer_.zero_grad();
    }

    float Step(const torch::Tensor& data, const torch::Tensor& target) {
        auto o = data.index({torch::indexing::Slice(), 0}).to(torch::kCUDA);
        auto d = data.index({torch::indexing::Slice(), 1}).to(torch::kCUDA);
        auto c = target.to(torch::kCUDA).detach();
        auto params = VolumeRenderingWithRadianceFieldParams{
            nerf_.RadianceFieldCoarse(), nerf_.RadianceFieldFine(), o, d, nerf_.GetTNear(), nerf_.GetTFar(),
            nerf_.GetNCoarse(), nerf_.GetNFine(), nerf_.GetBackColor()};
        auto [c_c, c_f] = VolumeRenderingWithRadianceField(params);
        auto loss = torch::nn::functional::mse_loss(c_c, c) + torch::nn::functional::mse_loss(c_f, c);
        (loss / static_cast<double>(accumulation_)).backward();
        if (++gathered_ == accumulation_) Update();
        return loss.item<float>();
    }

    int64_t updates() const { return updates_; }

private:
    void Update() {
        optimizer_.step();
        scheduler_.step();
        optimizer_.zero_grad();
        gathered_ = 0;
        ++updates_;
    }

    NeRF& nerf_;
    int64_t accumulation_;
    double lr_;
    torch::optim::Adam optimizer_;
    ExponentialDecay scheduler_;
    int64_t gathered_ = 0;
    int64_t updates_ = 0;
};

int main(int argc, char** argv) {
    const auto log_dir = std::filesystem::absolute(std::filesystem::path("log"));
    auto logger = Logger(log_dir);
    constexpr int kNumEpoch = 10;
    constexpr int64_t kBatchSize = 2048;
    const int64_t accumulation = argc > 1 ? std::stoll(argv[1]) : 2;

    auto dataset = Dataset(GetDatasetPath()).map(torch::data::transforms::Stack<>());
    const auto train_dataloader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        dataset, torch::data::DataLoaderOptions().batch_size(kBatchSize).workers(4));
    auto nerf = NeRF(512, 512, kBatchSize);
    nerf.RadianceFieldCoarse()->to(torch::kCUDA);
    nerf.RadianceFieldFine()->to(torch::kCUDA);
    nerf.RadianceFieldCoarse()->train();
    nerf.RadianceFieldFine()->train();

    NeRFTrainer trainer(nerf, accumulation, 5e-4);
    for (auto epoch_i = 0; epoch_i < kNumEpoch; epoch_i++) {
        auto epoch_loss = AverageMeter<float>();
        for (auto& batch : *train_dataloader) epoch_loss.Add(trainer.Step(batch.data, batch.target));
        const auto loss = epoch_loss.GetAverage();
        std::cout << "epoch " << epoch_i << " loss: " << loss << " updates: " << trainer.updates() << std::endl;
        logger.Log({{LoggerData::kEpoch, epoch_i}, {LoggerData::kLoss, loss}});
        nerf.SaveModel(log_dir, epoch_i);
    }
    logger.Write();
    return 0;
}
