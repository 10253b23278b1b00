// SSD training loop where each loader batch is pushed through in sub-batches, after train/train.cpp of ssd.libtorch
#include <ATen/autocast_mode.h>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <vector>
#include <torch/torch.h>
#include "ssd_support.hpp"

struct GradScaler {
    float scale_ = 65536.0f;
    float growth_factor_ = 2.0f;
    float backoff_factor_ = 0.5f;
    float max_scale_ = 65536.0f * 128.0f;
    int growth_interval_ = 2000;
    int growth_step_ = 0;

    torch::Tensor scale_loss(const torch::Tensor &loss) { return loss * scale_; }

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
        if (max_norm > 0 && !params.empty()) torch::nn::utils::clip_grad_norm_(params, max_norm);
        optimizer.step();
        if (++growth_step_ >= growth_interval_) {
            scale_ = std::min(scale_ * growth_factor_, max_scale_);
            growth_step_ = 0;
        }
        return true;
    }
};

std::vector<float> train_model(Net &model, torch::Device &device,
                               std::vector<torch::Tensor> &images, std::vector<torch::Tensor> &targets,
                               std::vector<torch::Tensor> &val_images, std::vector<torch::Tensor> &val_targets,
                               const int &num_epochs, const int &batch_size, const float &learning_rate,
                               const int &num_workers, PrecisionMode precision, int num_classes,
                               const torch::Tensor &anchors, const int &sub_batches) {
    std::vector<float> losses_train;
    torch::optim::AdamW optimizer(model.parameters(), torch::optim::AdamWOptions(learning_rate).weight_decay(0.05));

    const float max_norm = 1.0f;
    constexpr int warmup_epochs = 5;
    const float lr_min = learning_rate * 0.01f;
    const float lr_max = learning_rate;
    const bool use_amp = (precision != PrecisionMode::FP32) && device.is_cuda();
    const bool use_scaler = (precision == PrecisionMode::FP16) && device.is_cuda();
    const at::ScalarType amp_dtype = (precision == PrecisionMode::FP16) ? at::kHalf : at::kBFloat16;
    GradScaler scaler;

    auto custom_dataset = CustomDataset(images, targets);
    auto data_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        custom_dataset, torch::data::DataLoaderOptions().batch_size(batch_size).workers(num_workers));
    const int num_batches = static_cast<int>((images.size() + batch_size - 1) / batch_size);

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
        float epoch_loss = 0.0f;
        int batch_idx = 0;
        for (auto &batch : *data_loader) {
            std::vector<torch::Tensor> batch_images, batch_targets;
            for (const auto &example : batch) {
                batch_images.push_back(example.data);
                batch_targets.push_back(example.target.to(device));
            }
            auto stacked = torch::stack(batch_images, 0).to(device);

            // the whole loader batch makes one update; memory only allows a piece at a time
            const int64_t parts = std::min<int64_t>(sub_batches, stacked.size(0));
            auto pieces = stacked.tensor_split(parts, 0);
            optimizer.zero_grad();
            int64_t offset = 0;
            float batch_loss = 0.0f;
            for (auto &piece : pieces) {
                const int64_t n = piece.size(0);
                std::vector<torch::Tensor> piece_targets(batch_targets.begin() + offset, batch_targets.begin() + offset + n);
                offset += n;

                if (use_amp) {
                    at::autocast::set_enabled(true);
                    at::autocast::set_autocast_gpu_dtype(amp_dtype);
                    at::autocast::increment_nesting();
                }
                auto [boxes, scores] = model.forward(piece);
                auto loss = ssd_loss(boxes, scores, piece_targets, anchors) / parts;
                if (use_amp) {
                    at::autocast::decrement_nesting();
                    at::autocast::set_enabled(false);
                    at::autocast::clear_cache();
                }
                if (use_scaler) {
                    scaler.scale_loss(loss).backward();
                } else {
                    loss.backward();
                }
                batch_loss += loss.item<float>();
            }
            if (use_scaler) {
                scaler.step(optimizer, max_norm);
            } else {
                torch::nn::utils::clip_grad_norm_(model.parameters(), max_norm);
                optimizer.step();
            }

            epoch_loss += batch_loss;
            ++batch_idx;
            std::cout << "\r  Epoch " << epoch + 1 << "/" << num_epochs << "  " << batch_idx << "/" << num_batches
                      << "  Loss: " << std::fixed << std::setprecision(4) << epoch_loss / batch_idx << "   " << std::flush;
        }
        losses_train.push_back(epoch_loss / std::max(batch_idx, 1));
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
    save_model(model, "last.pt");
    return losses_train;
}
