// SSD training loop, mixed precision with a loss scaler and accumulated batches, after train/train.cpp of ssd.libtorch
#include <ATen/autocast_mode.h>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <vector>
#include <torch/torch.h>
#include "ssd_support.hpp"

class GradScaler {
public:
    explicit GradScaler(float init_scale = 65536.0f) : scale_(init_scale) {}
    torch::Tensor scale_loss(const torch::Tensor &loss) { return loss * scale_; }
    float scale() const { return scale_; }

    // unscale; on inf/nan drop the gradients and back off, otherwise clip and step
    bool step(torch::optim::Optimizer &optimizer, float max_norm) {
        std::vector<torch::Tensor> params, flat;
        for (auto &group : optimizer.param_groups()) {
            for (auto &param : group.params()) {
                if (!param.grad().defined()) continue;
                param.grad().div_(scale_);
                flat.push_back(param.grad().view(-1));
                params.push_back(param);
            }
        }
        if (!flat.empty() && !torch::isfinite(torch::cat(flat)).all().item<bool>()) {
            optimizer.zero_grad();
            scale_ *= 0.5f;
            good_steps_ = 0;
            return false;
        }
        if (max_norm > 0 && !params.empty()) torch::nn::utils::clip_grad_norm_(params, max_norm);
        optimizer.step();
        if (++good_steps_ >= 2000) {
            scale_ = std::min(scale_ * 2.0f, 65536.0f * 128.0f);
            good_steps_ = 0;
        }
        return true;
    }
private:
    float scale_;
    int good_steps_ = 0;
};

std::vector<float> train_model(Net &model, torch::Device &device,
                               std::vector<torch::Tensor> &images, std::vector<torch::Tensor> &targets,
                               std::vector<torch::Tensor> &val_images, std::vector<torch::Tensor> &val_targets,
                               const int &num_epochs, const int &batch_size, const float &learning_rate,
                               int num_classes, const torch::Tensor &anchors, const int &accumulation_steps) {
    std::vector<float> losses_train;
    torch::optim::AdamW optimizer(model.parameters(), learning_rate);
    const float max_norm = 1.0f;
    constexpr int warmup_epochs = 5;
    const float lr_min = learning_rate * 0.01f, lr_max = learning_rate;
    GradScaler scaler;

    auto custom_dataset = CustomDataset(images, targets);
    auto data_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        custom_dataset, torch::data::DataLoaderOptions().batch_size(batch_size));
    const int num_batches = static_cast<int>((images.size() + batch_size - 1) / batch_size);

    float best_map = 0.0f;
    int step_count = 0;
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
            auto stacked = torch::stack(batch_images, 0).to(device);

            at::autocast::set_enabled(device.is_cuda());
            at::autocast::increment_nesting();
            auto [boxes, scores] = model.forward(stacked);
            auto loss = ssd_loss(boxes, scores, batch_targets, anchors);
            at::autocast::decrement_nesting();
            at::autocast::set_enabled(false);
            at::autocast::clear_cache();

            scaler.scale_loss(loss / accumulation_steps).backward();
            ++batch_idx;
            if (batch_idx % accumulation_steps == 0 || batch_idx == num_batches) {
                if (scaler.step(optimizer, max_norm)) ++step_count;
            }

            epoch_loss += loss.item<float>();
            std::cout << "\r  Epoch " << epoch + 1 << "/" << num_epochs << "  " << batch_idx << "/" << num_batches
                      << "  Loss: " << std::fixed << std::setprecision(4) << epoch_loss / batch_idx
                      << "  scale: " << scaler.scale() << "   " << std::flush;
        }
        losses_train.push_back(epoch_loss / std::max(batch_idx, 1));
        std::cout << "  updates: " << step_count << std::endl;

        if (!val_images.empty()) {
            auto [map_50, map_50_95] = validate(model, device, val_images, val_targets, num_classes, batch_size, anchors);
            std::cout << "  mAP@0.5: " << map_50 << "  mAP@0.5:0.95: " << map_50_95 << std::endl;
            if (map_50_95 > best_map) {
                best_map = map_50_95;
                save_model(model, "best.pt");
            }
        }
    }
    save_model(model, "last.pt");
    return losses_train;
}
