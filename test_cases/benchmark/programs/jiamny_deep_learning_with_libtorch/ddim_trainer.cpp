// 25_Diffusion: DDIM training run with an iteration-based learning-rate
// decay (halve every 20k optimizer updates) and an EMA shadow model.
// Bookkeeping after each batch (logging, schedule, sampling) is grouped in
// the `on_batch_end` lambda; gradients are accumulated over
// `accumulation_steps` batches.
#include <torch/torch.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "diffusion_support.h"

int main(int argc, char** argv) {
    const int train_batch_size = 16;
    const double train_lr = 2e-4;
    const int train_num_epochs = 200;
    const double ema_decay = 0.995;
    const int save_and_sample_every = 1000;
    const int accumulation_steps = argc > 1 ? std::stoi(argv[1]) : 4;
    const std::string sample_path = "experiments/ddim/outputs";
    const std::string checkpoint_path = "experiments/ddim/checkpoints";
    makedirs(sample_path.c_str());
    makedirs(checkpoint_path.c_str());

    SamplerOptions options;
    options.img_height(64).img_width(64).T(1000).stride(20).eta(0.0f);
    std::shared_ptr<Sampler> sampler = std::make_shared<DDPMImpl>(nullptr, options);
    auto device = sampler->parameters(true).back().device();
    std::shared_ptr<Sampler> sampler_shadow = sampler->copy();
    update_average(sampler_shadow, sampler, 0.);

    auto dataset = ImageFolderDataset("./data/animefaces", {64, 64}, "jpg")
                       .map(torch::data::transforms::Stack<torch::data::TensorExample>());
    const size_t num_step = dataset.size().value() / train_batch_size;
    auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        std::move(dataset), torch::data::DataLoaderOptions().batch_size(train_batch_size).workers(2).drop_last(true));

    torch::optim::AdamW optimizer(sampler->parameters(), torch::optim::AdamWOptions(train_lr).weight_decay(0.0));
    torch::optim::StepLR scheduler(optimizer, /*step_size=*/20000, /*gamma=*/0.5);

    long step = 0;
    auto on_batch_end = [&](size_t epoch, size_t batch_idx, float loss) {
        scheduler.step();
        if (step % save_and_sample_every == 0) {
            std::stringstream img, ckpt;
            img << sample_path << "/" << sampler->name() << "_" << epoch << "_" << step << "_ema.png";
            ckpt << checkpoint_path << "/" << sampler->name() << "_" << epoch << "_" << step << ".pth";
            sampler_shadow->sample(img.str(), 4);
            save_state_dict(sampler_shadow->get_model(), ckpt.str());
        }
        std::printf("\rEpoch [%3zu / %3d] .. [%5zu/%5zu] Loss: %.4f", epoch, train_num_epochs, batch_idx, num_step, loss);
    };

    sampler->zero_grad(true);
    for (size_t epoch = 1; epoch <= static_cast<size_t>(train_num_epochs); ++epoch) {
        size_t batch_idx = 0;
        for (auto& batch : *train_loader) {
            auto data = batch.data.to(device);
            torch::Tensor noise_images, steps, noise;
            std::tie(noise_images, steps, noise) = sampler->p_x(data);
            auto denoise = sampler->forward(noise_images, steps);
            auto loss = torch::sum((denoise - noise).pow(2), {1, 2, 3}, true).mean();
            (loss / accumulation_steps).backward();

            if ((step + 1) % accumulation_steps == 0) {
                optimizer.step();
                sampler->zero_grad(true);
                update_average(sampler_shadow, sampler, ema_decay);
            }
            on_batch_end(epoch, batch_idx, loss.item<float>());
            step += 1;
            batch_idx += 1;
        }
    }
    std::cout << "\nDone\n";
    return 0;
}
