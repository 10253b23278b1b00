// SSD training loop with accumulated mini-batches, after train/train.cpp of ssd.libtorch
#include <ATen/autocast_mode.h>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <vector>
#include <torch/torch.h>
#include "ssd_support.hpp"

struct GradScaler {
    float scale_;
    float growth_factor_;
    float backoff_factor_;
    float max_scale_;
    int growth_interval_;
    int growth_step_;

    GradScaler(float init_scale = 65536.0f, float growth_factor = 2.0f, float backoff_factor = 0.5f, int growth_interval = 2000)
        : scale_(init_scale), growth_factor_(growth_factor), backoff_factor_(backoff_factor),
          max_scale_(65536.0f * 128.0f), growth_interval_(growth_interval), growth_step_(0) {}

    torch::Tensor scale_loss(const torch::Tensor &loss) { return loss * scale_; }

    // unscale, skip the step on inf/nan, clip, step, adapt the scale
    bool step(torch::optim::Optimizer &optimizer, float max_norm = 0.0f) {
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
            scale_ *= backoff_factor_;
            growth_step_ = 0;
            return false;
        }
        if (max_norm > 0 && !params.empty()) {
            torch::nn::utils::clip_grad_norm_(params, max_norm);
        }
        optimizer.step();
        if (++growth_step_ >= growth_interval_) {
            scale_ = std::min(scale_ * growth_factor_, max_scale_);
            growth_step_ = 0;
        }
        return true;
    }
};

std::tuple<torch::Tensor, std::vector<torch::Tensor>> collate_fn(std::vector<torch::data::Example<torch::Tensor, torch::Tensor>> &batch, torch::Device &device) {
    std::vector<torch::Tensor> images, targets;
    images.reserve(batch.size());
    targets.reserve(batch.size());
    for (const auto &example : batch) {
        images.push_back(example.data);
        targets.push_back(example.target.to(device));
    }
    return {torch::stack(images, 0).to(device), targets};
}

std::vector<float> train_model(Net &model, torch::Device &device,
                               std::vector<torch::Tensor> &images, std::vector<torch::Tensor> &targets,
                               std::vector<torch::Tensor> &val_images, std::vector<torch::Tensor> &val_targets,
                               const int &num_epochs, const int &batch_size, const float &learning_rate,
                               const int &num_workers, PrecisionMode precision, int num_classes,
                               const torch::Tensor &anchors, const int &accumulation_steps) {
    torch::Tensor loss;
    float epoch_loss;
    std::vector<float> losses_train;
    torch::optim::AdamW optimizer = torch::optim::AdamW(model.parameters(), learning_rate);

    const float max_norm = 1.0f;
    constexpr int warmup_epochs = 5;
    float lr_min = learning_rate * 0.01f;
    float lr_max = learning_rate;

    bool use_amp = (precision != PrecisionMode::FP32) && device.is_cuda();
    bool use_scaler = (precision == PrecisionMode::FP16) && device.is_cuda();
    at::ScalarType amp_dtype = (precision == PrecisionMode::FP16) ? at::kHalf : at::kBFloat16;
    GradScaler scaler;

    std::cout << "Grad norm clipping: " << max_norm << "  accumulation: " << accumulation_steps << std::endl;
    model.train();

    auto custom_dataset = CustomDataset(images, targets);
    auto data_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        custom_dataset, torch::data::DataLoaderOptions().batch_size(batch_size).workers(num_workers));

    float best_map = 0.0f;
    int best_epoch = 0;
    int num_batches = static_cast<int>((images.size() + batch_size - 1) / batch_size);

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
        torch::Tensor epoch_loss_acc = torch::zeros({1}, torch::TensorOptions().device(device));
        optimizer.zero_grad();

        int batch_idx = 0;
        for (auto &batch : *data_loader) {
            auto [batch_images, batch_targets] = collate_fn(batch, device);

            if (use_amp) {
                at::autocast::set_enabled(true);
                at::autocast::set_autocast_gpu_dtype(amp_dtype);
                at::autocast::increment_nesting();
            }
            auto [boxes, scores] = model.forward(batch_images);
            loss = ssd_loss(boxes, scores, batch_targets, anchors);
            if (use_amp) {
                at::autocast::decrement_nesting();
                at::autocast::set_enabled(false);
                at::autocast::clear_cache();
            }
            epoch_loss_acc += loss.detach();

            ++batch_idx;
            const bool boundary = (batch_idx % accumulation_steps == 0) || (batch_idx == num_batches);
            if (use_scaler) {
                scaler.scale_loss(loss / accumulation_steps).backward();
                if (boundary) {
                    scaler.step(optimizer, max_norm);
                    optimizer.zero_grad();
                }
            } else {
                (loss / accumulation_steps).backward();
                torch::nn::utils::clip_grad_norm_(model.parameters(), max_norm);
                if (boundary) {
                    optimizer.step();
                    optimizer.zero_grad();
                }
            }

            float running_loss = epoch_loss_acc.item<float>() / batch_idx;
            std::cout << "\r  Epoch " << epoch + 1 << "/" << num_epochs << "  " << batch_idx << "/" << num_batches
                      << "  Loss: " << std::fixed << std::setprecision(4) << running_loss << "   " << std::flush;
        }

        epoch_loss = epoch_loss_acc.item<float>() / num_batches;
        losses_train.push_back(epoch_loss);
        std::cout << "\r  Epoch " << epoch + 1 << "/" << num_epochs << "  Loss: " << std::fixed << std::setprecision(4) << epoch_loss
                  << "  LR: " << std::scientific << std::setprecision(2) << lr << std::endl;

        if (!val_images.empty()) {
            auto [map_50, map_50_95] = validate(model, device, val_images, val_targets, num_classes, batch_size, anchors);
            std::cout << "  mAP@0.5: " << std::fixed << std::setprecision(4) << map_50 << "  mAP@0.5:0.95: " << map_50_95;
            if (map_50_95 > best_map) {
                best_map = map_50_95;
                best_epoch = epoch + 1;
                save_model(model, "best.pt");
                std::cout << " [BEST]";
            }
            std::cout << std::endl;
        }
    }

    std::cout << "Best mAP@0.5:0.95: " << best_map << " at epoch " << best_epoch << std::endl;
    save_model(model, "last.pt");
    return losses_train;
}
