// SSD training on several processes with averaged gradients, after train/train.cpp of ssd.libtorch
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <vector>
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include "ssd_support.hpp"

static c10::intrusive_ptr<c10d::ProcessGroupGloo> make_process_group(int rank, int world_size) {
    auto store = c10::make_intrusive<c10d::FileStore>(std::getenv("SSD_DIST_FILE"), world_size);
    auto options = c10d::ProcessGroupGloo::Options::create();
    options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size, options);
}

// mean of the gradients over all processes
static void average_gradients(Net &model, c10d::ProcessGroupGloo &pg) {
    std::vector<torch::Tensor> grads;
    for (auto &p : model.parameters()) {
        if (p.grad().defined()) grads.push_back(p.grad());
    }
    pg.allreduce_coalesced(grads)->wait();
    for (auto &g : grads) g.div_(pg.getSize());
}

std::vector<float> train_model(Net &model, torch::Device &device,
                               std::vector<torch::Tensor> &images, std::vector<torch::Tensor> &targets,
                               std::vector<torch::Tensor> &val_images, std::vector<torch::Tensor> &val_targets,
                               const int &num_epochs, const int &batch_size, const float &learning_rate,
                               int num_classes, const torch::Tensor &anchors, const int &accumulation_steps) {
    const int rank = std::atoi(std::getenv("RANK"));
    const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
    auto pg = make_process_group(rank, world_size);

    std::vector<float> losses_train;
    torch::optim::AdamW optimizer(model.parameters(), learning_rate);
    const float max_norm = 1.0f;
    constexpr int warmup_epochs = 5;
    const float lr_min = learning_rate * 0.01f, lr_max = learning_rate;

    {
        torch::NoGradGuard no_grad;
        for (auto &p : model.parameters()) {
            std::vector<torch::Tensor> one{p};
            pg->broadcast(one)->wait();
        }
    }

    auto custom_dataset = CustomDataset(images, targets);
    auto sampler = torch::data::samplers::DistributedRandomSampler(images.size(), world_size, rank);
    auto data_loader = torch::data::make_data_loader(custom_dataset, std::move(sampler),
        torch::data::DataLoaderOptions().batch_size(batch_size));

    int micro_step = 0;
    float best_map = 0.0f;
    optimizer.zero_grad();
    for (int epoch = 0; epoch < num_epochs; ++epoch) {
        float lr;
        if (epoch < warmup_epochs) {
            lr = lr_min + (lr_max - lr_min) * static_cast<float>(epoch + 1) / warmup_epochs;
        } else {
            float progress = static_cast<float>(epoch - warmup_epochs) / static_cast<float>(std::max(num_epochs - warmup_epochs, 1));
            lr = lr_min + 0.5f * (lr_max - lr_min) * (1.0f + std::cos(M_PI * progress));
        }
        for (auto &group : optimizer.param_groups()) {
            static_cast<torch::optim::AdamWOptions &>(group.options()).lr(lr);
        }

        model.train();
        float epoch_loss = 0.0f;
        int batch_idx = 0;
        for (auto &batch : *data_loader) {
            std::vector<torch::Tensor> batch_images, batch_targets;
            for (const auto &example : batch) {
                batch_images.push_back(example.data);
                batch_targets.push_back(example.target.to(device));
            }
            auto [boxes, scores] = model.forward(torch::stack(batch_images, 0).to(device));
            auto loss = ssd_loss(boxes, scores, batch_targets, anchors);
            // every process contributes 1/world_size of each update, spread over accumulation_steps batches
            auto share = loss * (1.0 / (accumulation_steps * world_size));
            share.backward();

            if (++micro_step == accumulation_steps) {
                average_gradients(model, *pg);
                torch::nn::utils::clip_grad_norm_(model.parameters(), max_norm);
                optimizer.step();
                optimizer.zero_grad();
                micro_step = 0;
            }
            epoch_loss += loss.item<float>();
            ++batch_idx;
            if (rank == 0) {
                std::cout << "\r  Epoch " << epoch + 1 << "/" << num_epochs << "  " << batch_idx
                          << "  Loss: " << std::fixed << std::setprecision(4) << epoch_loss / batch_idx << "   " << std::flush;
            }
        }
        losses_train.push_back(epoch_loss / std::max(batch_idx, 1));
        if (rank != 0) continue;
        std::cout << std::endl;
        if (!val_images.empty()) {
            auto [map_50, map_50_95] = validate(model, device, val_images, val_targets, num_classes, batch_size, anchors);
            std::cout << "  mAP@0.5: " << map_50 << "  mAP@0.5:0.95: " << map_50_95 << std::endl;
            if (map_50_95 > best_map) {
                best_map = map_50_95;
                save_model(model, "best.pt");
            }
        }
    }
    if (rank == 0) save_model(model, "last.pt");
    return losses_train;
}
