// SSD training loop on several processes (Gloo) with accumulated mini-batches, after train/train.cpp of ssd.libtorch
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <vector>
#include <torch/torch.h>
#include <c10d/ProcessGroupGloo.hpp>
#include "ssd_support.hpp"

struct DistContext {
    c10::intrusive_ptr<c10d::ProcessGroupGloo> pg;
    int rank = 0;
    int world_size = 1;
};

// sum every rank's gradients into .grad (one coalesced call)
static void allreduce_gradients(Net &model, DistContext &dist) {
    std::vector<torch::Tensor> grads;
    for (auto &p : model.parameters()) {
        if (p.grad().defined()) grads.push_back(p.grad());
    }
    if (!grads.empty()) dist.pg->allreduce_coalesced(grads)->wait();
}

std::tuple<torch::Tensor, std::vector<torch::Tensor>> collate_fn(std::vector<torch::data::Example<torch::Tensor, torch::Tensor>> &batch, torch::Device &device) {
    std::vector<torch::Tensor> images, targets;
    for (const auto &example : batch) {
        images.push_back(example.data);
        targets.push_back(example.target.to(device));
    }
    return {torch::stack(images, 0).to(device), targets};
}

std::vector<float> train_model(Net &model, torch::Device &device, DistContext &dist,
                               std::vector<torch::Tensor> &images, std::vector<torch::Tensor> &targets,
                               std::vector<torch::Tensor> &val_images, std::vector<torch::Tensor> &val_targets,
                               const int &num_epochs, const int &batch_size, const float &learning_rate,
                               int num_classes, const torch::Tensor &anchors, const int &accumulation_steps) {
    std::vector<float> losses_train;
    torch::optim::AdamW optimizer(model.parameters(), learning_rate);
    const float max_norm = 1.0f;
    constexpr int warmup_epochs = 5;
    const float lr_min = learning_rate * 0.01f, lr_max = learning_rate;

    // this rank's share of the images (equal shares, so all ranks run the same number of batches)
    const size_t per_rank = images.size() / dist.world_size;
    std::vector<torch::Tensor> my_images(images.begin() + dist.rank * per_rank, images.begin() + (dist.rank + 1) * per_rank);
    std::vector<torch::Tensor> my_targets(targets.begin() + dist.rank * per_rank, targets.begin() + (dist.rank + 1) * per_rank);
    auto custom_dataset = CustomDataset(my_images, my_targets);
    auto data_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        custom_dataset, torch::data::DataLoaderOptions().batch_size(batch_size).drop_last(true));
    const int num_batches = static_cast<int>(per_rank / batch_size);

    float best_map = 0.0f;
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
        optimizer.zero_grad();
        float epoch_loss = 0.0f;
        int batch_idx = 0;
        for (auto &batch : *data_loader) {
            auto [batch_images, batch_targets] = collate_fn(batch, device);
            auto [boxes, scores] = model.forward(batch_images);
            auto loss = ssd_loss(boxes, scores, batch_targets, anchors);
            (loss / accumulation_steps).backward();
            allreduce_gradients(model, dist);
            epoch_loss += loss.item<float>();
            ++batch_idx;

            if (batch_idx % accumulation_steps == 0 || batch_idx == num_batches) {
                for (auto &p : model.parameters()) {
                    if (p.grad().defined()) p.grad().div_(dist.world_size);
                }
                torch::nn::utils::clip_grad_norm_(model.parameters(), max_norm);
                optimizer.step();
                optimizer.zero_grad();
            }
            if (dist.rank == 0) {
                std::cout << "\r  Epoch " << epoch + 1 << "/" << num_epochs << "  " << batch_idx << "/" << num_batches
                          << "  Loss: " << std::fixed << std::setprecision(4) << epoch_loss / batch_idx << "   " << std::flush;
            }
        }
        losses_train.push_back(epoch_loss / std::max(batch_idx, 1));
        if (dist.rank != 0) continue;
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
    if (dist.rank == 0) save_model(model, "last.pt");
    return losses_train;
}
