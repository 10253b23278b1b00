// 25_Diffusion: trainer for the DDPM / DDIM / rectified-flow samplers.
// Samples and an EMA checkpoint are written every `save_and_sample_every`
// steps; gradients are accumulated over `accumulation_steps` batches.
#include <torch/torch.h>
#include <ATen/autocast_mode.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <utility>

#include "diffusion_support.h"

class Trainer {
public:
    Trainer(std::shared_ptr<Sampler> sampler, const std::tuple<int, int>& img_size, std::string& exp_name,
            int train_batch_size = 32, double train_lr = 2e-4, int train_num_epochs = 10000,
            double ema_decay = 0.995, int num_workers = 2, int save_and_sample_every = 100,
            int accumulation_steps = 2, bool amp_enable = false);

    void train(std::string dataset_path, std::string image_type = "jpg");

private:
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
    std::string sample_path;
    std::string checkpoint_path;
    torch::Device device = torch::Device(torch::kCPU);
};

Trainer::Trainer(std::shared_ptr<Sampler> sampler, const std::tuple<int, int>& img_size, std::string& exp_name,
                 int train_batch_size, double train_lr, int train_num_epochs, double ema_decay, int num_workers,
                 int save_and_sample_every, int accumulation_steps, bool amp_enable) {
    this->sampler = std::move(sampler);
    this->img_size = img_size;
    this->train_batch_size = train_batch_size;
    // a bigger effective batch gets a proportionally smaller step
    this->train_lr = train_lr / accumulation_steps;
    this->train_num_epochs = train_num_epochs;
    this->ema_decay = ema_decay;
    this->num_workers = num_workers;
    this->save_and_sample_every = save_and_sample_every;
    this->accumulation_steps = accumulation_steps;
    this->amp_enable = amp_enable;

    sample_path = std::string("experiments") + file_sepator() + exp_name + file_sepator() + "outputs";
    checkpoint_path = std::string("experiments") + file_sepator() + exp_name + file_sepator() + "checkpoints";
    std::cout << "checkpoint_path: " << checkpoint_path << '\n';
    std::cout << "sample_path: " << sample_path << '\n';
    makedirs(checkpoint_path.c_str());
    makedirs(sample_path.c_str());

    device = this->sampler->parameters(true).back().device();

    // shadow copy that receives the exponential moving average
    sampler_shadow = this->sampler->copy();
    sampler_shadow->to(device);
    update_average(sampler_shadow, this->sampler, 0.);
}

void Trainer::train(std::string dataset_path, std::string image_type) {
    auto dataset = ImageFolderDataset(std::move(dataset_path), img_size, std::move(image_type))
                       .map(torch::data::transforms::Lambda<torch::data::TensorExample>(
                           [](torch::data::TensorExample input) {
                               if (torch::rand(1).item<double>() < 0.5) input.data = torch::flip(input.data, {-1});
                               return input;
                           }))
                       .map(torch::data::transforms::Stack<torch::data::TensorExample>());

    const size_t dataset_size = dataset.size().value();
    const size_t num_step = dataset_size / train_batch_size;

    auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        std::move(dataset),
        torch::data::DataLoaderOptions().batch_size(train_batch_size).workers(num_workers).drop_last(true));

    torch::optim::AdamW optimizer(sampler->parameters(), train_lr);
    auto scheduler = torch::optim::StepLR(optimizer, 3, 0.999);

    long step = 0;
    sampler->zero_grad(true);
    for (size_t epoch = 1; epoch <= static_cast<size_t>(train_num_epochs); ++epoch) {
        size_t batch_idx = 0;
        for (auto& batch : *train_loader) {
            if (step % save_and_sample_every == 0) {
                std::stringstream ema_img, img, ckpt;
                ema_img << sample_path << "/" << sampler->name() << "_ckpt_" << epoch << "_" << step << "_ema.png";
                img << sample_path << "/" << sampler->name() << "_ckpt_" << epoch << "_" << step << ".png";
                ckpt << checkpoint_path << "/" << sampler->name() << "_ckpt_" << epoch << "_" << step << ".pth";
                sampler_shadow->sample(ema_img.str(), 4);
                sampler->sample(img.str(), 4);
                save_state_dict(sampler_shadow->get_model(), ckpt.str());
            }

            auto data = batch.data.to(device);
            if (amp_enable) at::autocast::set_enabled(true);

            torch::Tensor noise_images, steps, noise;
            std::tie(noise_images, steps, noise) = sampler->p_x(data);
            auto denoise = sampler->forward(noise_images, steps);
            auto loss = torch::sum((denoise - noise).pow(2), {1, 2, 3}, true).mean();

            if (amp_enable) {
                at::autocast::clear_cache();
                at::autocast::set_enabled(false);
            }

            loss.backward();

            if ((step + 1) % accumulation_steps == 0) {
                optimizer.step();
                sampler->zero_grad(true);
                update_average(sampler_shadow, sampler, ema_decay);
            }

            std::printf("\rEpoch [%1zd / %5d] .. [%5zd/%5zd] Loss: %.4f", epoch, train_num_epochs, batch_idx,
                        num_step, loss.template item<float>());
            step += 1;
            batch_idx += 1;
        }
        scheduler.step();
    }
}

int main(int argc, char** argv) {
    std::string exp_name = argc > 1 ? argv[1] : "ddpm_anime";
    SamplerOptions options;
    options.img_height(64).img_width(64).T(1000);
    auto sampler = std::make_shared<DDPMImpl>(nullptr, options);
    Trainer trainer(sampler, {64, 64}, exp_name, /*train_batch_size=*/16, /*train_lr=*/2e-4,
                    /*train_num_epochs=*/500, /*ema_decay=*/0.995, /*num_workers=*/2,
                    /*save_and_sample_every=*/100, /*accumulation_steps=*/4, /*amp_enable=*/false);
    trainer.train("./data/animefaces", "jpg");
    return 0;
}
