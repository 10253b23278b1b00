// 25_Diffusion: DDPM training with AdamW weight decay and an EMA shadow
// sampler used for the saved samples and checkpoints. Written as a small
// trainer with a per-batch `fit_batch` and the loader loop in `train`.
#include <torch/torch.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "diffusion_support.h"

struct TrainerConfig {
    int train_batch_size = 16;
    double train_lr = 2e-4;
    double weight_decay = 1e-2;
    int train_num_epochs = 300;
    double ema_decay = 0.995;
    int save_and_sample_every = 500;
    int accumulation_steps = 4;
};

class DDPMTrainer {
public:
    DDPMTrainer(std::shared_ptr<Sampler> sampler, TrainerConfig cfg) : sampler_(std::move(sampler)), cfg_(cfg) {
        device_ = sampler_->parameters(true).back().device();
        shadow_ = sampler_->copy();
        shadow_->to(device_);
        update_average(shadow_, sampler_, 0.);

        double decay = cfg_.weight_decay;
        decay /= cfg_.accumulation_steps;
        optimizer_ = std::make_unique<torch::optim::AdamW>(
            sampler_->parameters(), torch::optim::AdamWOptions(cfg_.train_lr).weight_decay(decay));
        optimizer_->zero_grad();
    }

    // One batch: noise-prediction loss, backward, update at the window's end.
    float fit_batch(const torch::Tensor& images) {
        torch::Tensor noise_images, steps, noise;
        std::tie(noise_images, steps, noise) = sampler_->p_x(images.to(device_));
        auto denoise = sampler_->forward(noise_images, steps);
        auto loss = torch::sum((denoise - noise).pow(2), {1, 2, 3}, true).mean();
        (loss / cfg_.accumulation_steps).backward();

        if (++micro_ == cfg_.accumulation_steps) {
            optimizer_->step();
            optimizer_->zero_grad();
            micro_ = 0;
            ++updates_;
        }
        update_average(shadow_, sampler_, cfg_.ema_decay);
        return loss.item<float>();
    }

    void train(const std::string& dataset_path) {
        auto dataset = ImageFolderDataset(dataset_path, {64, 64}, "jpg")
                           .map(torch::data::transforms::Stack<torch::data::TensorExample>());
        const size_t num_step = dataset.size().value() / cfg_.train_batch_size;
        auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
            std::move(dataset), torch::data::DataLoaderOptions().batch_size(cfg_.train_batch_size).workers(2).drop_last(true));

        for (int epoch = 1; epoch <= cfg_.train_num_epochs; ++epoch) {
            size_t batch_idx = 0;
            for (auto& batch : *loader) {
                const float loss = fit_batch(batch.data);
                if (updates_ % cfg_.save_and_sample_every == 0 && micro_ == 0) save(epoch);
                std::printf("\rEpoch [%3d / %3d] .. [%5zu/%5zu] Loss: %.4f", epoch, cfg_.train_num_epochs, ++batch_idx,
                            num_step, loss);
            }
        }
    }

private:
    void save(int epoch) {
        std::stringstream img, ckpt;
        img << "experiments/ddpm/outputs/" << sampler_->name() << "_" << epoch << "_" << updates_ << "_ema.png";
        ckpt << "experiments/ddpm/checkpoints/" << sampler_->name() << "_" << epoch << "_" << updates_ << ".pth";
        shadow_->sample(img.str(), 4);
        save_state_dict(shadow_->get_model(), ckpt.str());
    }

    std::shared_ptr<Sampler> sampler_;
    std::shared_ptr<Sampler> shadow_;
    TrainerConfig cfg_;
    torch::Device device_ = torch::Device(torch::kCPU);
    std::unique_ptr<torch::optim::AdamW> optimizer_;
    int micro_ = 0;
    long updates_ = 0;
};

int main() {
    SamplerOptions options;
    options.img_height(64).img_width(64).T(1000);
    auto sampler = std::make_shared<DDPMImpl>(nullptr, options);
    DDPMTrainer trainer(sampler, TrainerConfig{});
    trainer.train("./data/animefaces");
    return 0;
}
