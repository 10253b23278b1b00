// 25_Diffusion: trainer used for the rectified-flow sampler, with autocast
// enabled for the forward pass. Parameters and gradients stay float32; only
// the matmuls/convolutions run in reduced precision.
// One optimizer step per `accumulation_steps` batches; the batches left at
// the end of an epoch are stepped as a window of their own.
#include <torch/torch.h>
#include <ATen/autocast_mode.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "diffusion_support.h"

class Trainer {
public:
    Trainer(std::shared_ptr<Sampler> sampler, const std::tuple<int, int>& img_size, std::string& exp_name,
            int train_batch_size, double train_lr, int train_num_epochs, double ema_decay, int num_workers,
            int save_and_sample_every, int accumulation_steps, bool amp_enable)
        : sampler(std::move(sampler)),
          img_size(img_size),
          train_batch_size(train_batch_size),
          train_lr(train_lr),
          train_num_epochs(train_num_epochs),
          ema_decay(ema_decay),
          num_workers(num_workers),
          save_and_sample_every(save_and_sample_every),
          accumulation_steps(accumulation_steps),
          amp_enable(amp_enable) {
        sample_path = std::string("experiments") + file_sepator() + exp_name + file_sepator() + "outputs";
        checkpoint_path = std::string("experiments") + file_sepator() + exp_name + file_sepator() + "checkpoints";
        makedirs(checkpoint_path.c_str());
        makedirs(sample_path.c_str());
        device = this->sampler->parameters(true).back().device();
        sampler_shadow = this->sampler->copy();
        sampler_shadow->to(device);
        update_average(sampler_shadow, this->sampler, 0.);
    }

    void train(std::string dataset_path, std::string image_type = "jpg");

private:
    torch::Tensor compute_loss(const torch::Tensor& data);
    void apply_update(torch::optim::Optimizer& optimizer);
    void save_samples(size_t epoch);

    std::shared_ptr<Sampler> sampler{nullptr};
    std::shared_ptr<Sampler> sampler_shadow{nullptr};
    std::tuple<int, int> img_size;
    int train_batch_size;
    double train_lr;
    int train_num_epochs;
    double ema_decay;
    int num_workers;
    int save_and_sample_every;
    int accumulation_steps;
    bool amp_enable;
    long step = 0;
    std::string sample_path;
    std::string checkpoint_path;
    torch::Device device = torch::Device(torch::kCPU);
};

// Velocity-matching loss of one batch; autocast only around the forward.
torch::Tensor Trainer::compute_loss(const torch::Tensor& data) {
    if (amp_enable) at::autocast::set_enabled(true);
    torch::Tensor noise_images, steps, noise;
    std::tie(noise_images, steps, noise) = sampler->p_x(data);
    auto denoise = sampler->forward(noise_images, steps);
    auto loss = torch::sum((denoise.to(torch::kFloat32) - noise).pow(2), {1, 2, 3}, true).mean();
    if (amp_enable) {
        at::autocast::clear_cache();
        at::autocast::set_enabled(false);
    }
    return loss;
}

void Trainer::apply_update(torch::optim::Optimizer& optimizer) {
    optimizer.step();
    optimizer.zero_grad();
    update_average(sampler_shadow, sampler, ema_decay);
    step += 1;
}

void Trainer::save_samples(size_t epoch) {
    std::stringstream ema_img, ckpt;
    ema_img << sample_path << "/" << sampler->name() << "_ckpt_" << epoch << "_" << step << "_ema.png";
    ckpt << checkpoint_path << "/" << sampler->name() << "_ckpt_" << epoch << "_" << step << ".pth";
    sampler_shadow->sample(ema_img.str(), 4);
    save_state_dict(sampler_shadow->get_model(), ckpt.str());
}

void Trainer::train(std::string dataset_path, std::string image_type) {
    auto dataset = ImageFolderDataset(std::move(dataset_path), img_size, std::move(image_type))
                       .map(torch::data::transforms::Stack<torch::data::TensorExample>());
    const size_t num_step = dataset.size().value() / train_batch_size;
    auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        std::move(dataset),
        torch::data::DataLoaderOptions().batch_size(train_batch_size).workers(num_workers).drop_last(true));

    torch::optim::AdamW optimizer(sampler->parameters(), torch::optim::AdamWOptions(train_lr).weight_decay(1e-2));
    auto scheduler = torch::optim::StepLR(optimizer, 3, 0.999);

    for (size_t epoch = 1; epoch <= static_cast<size_t>(train_num_epochs); ++epoch) {
        optimizer.zero_grad();
        size_t batch_idx = 0;
        for (auto& batch : *train_loader) {
            auto loss = compute_loss(batch.data.to(device));
            (loss / accumulation_steps).backward();
            batch_idx += 1;

            if (batch_idx % accumulation_steps == 0) {
                apply_update(optimizer);
                if (step % save_and_sample_every == 0) save_samples(epoch);
            }
            std::printf("\rEpoch [%1zd / %5d] .. [%5zd/%5zd] Loss: %.4f", epoch, train_num_epochs, batch_idx,
                        num_step, loss.item<float>());
        }

        // Leftover batches: their gradients were divided by accumulation_steps,
        // rescale them to the mean over the leftover count before stepping.
        const size_t leftover = batch_idx % accumulation_steps;
        if (leftover != 0) {
            const double rescale = static_cast<double>(accumulation_steps) / leftover;
            for (auto& p : sampler->parameters()) {
                if (p.grad().defined()) p.grad().mul_(rescale);
            }
            apply_update(optimizer);
        }
        scheduler.step();
    }
}

int main() {
    std::string exp_name = "rectified_flow";
    SamplerOptions options;
    auto sampler = std::make_shared<DDPMImpl>(nullptr, options);
    Trainer trainer(sampler, {64, 64}, exp_name, 16, 2e-4, 500, 0.995, 2, 200, 4, /*amp_enable=*/true);
    trainer.train("./data/animefaces");
    return 0;
}
