// Chapter 5 pretraining in half precision on a small GPU.
// The GPT model runs in float16; AdamW steps a float32 master copy of the
// weights. Each micro-batch's (loss-scaled) float16 gradient is unscaled and
// added into float32 buffers right away, and the float16 .grad is cleared,
// so the window is summed in float32. The master weights are copied back into
// the float16 model after every step.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "llm_book.h"

class MixedPrecisionTrainer {
public:
    MixedPrecisionTrainer(ch4::GPTModel model, double lr, double weight_decay, int64_t accumulation_steps,
                          double loss_scale = 1024.0)
        : model_(std::move(model)), accumulation_steps_(accumulation_steps), loss_scale_(loss_scale) {
        for (auto& p : model_->parameters()) {
            half_params_.push_back(p);
            master_params_.push_back(p.detach().to(torch::kFloat32).clone().requires_grad_(true));
            grad_buffers_.push_back(torch::zeros_like(master_params_.back()));
        }
        optimizer_ = std::make_unique<torch::optim::AdamW>(
            master_params_, torch::optim::AdamWOptions(lr).betas({0.9, 0.95}).weight_decay(weight_decay));
    }

    // One micro-batch. Returns the unscaled loss.
    double train_batch(const ch2::GPTBatch& batch) {
        auto logits = model_->forward(batch.inputs);
        auto loss = torch::nn::functional::cross_entropy(logits.flatten(0, 1).to(torch::kFloat32),
                                                         batch.targets.flatten());
        (loss * (loss_scale_ / accumulation_steps_)).backward();

        bool finite = true;
        for (size_t k = 0; k < half_params_.size(); ++k) {
            auto& g = half_params_[k].mutable_grad();
            if (!g.defined()) continue;
            auto g32 = g.to(torch::kFloat32) / loss_scale_;
            finite = finite && torch::isfinite(g32).all().item<bool>();
            grad_buffers_[k].add_(g32);
            g.zero_();
        }
        if (!finite) overflow_in_window_ = true;

        if (++micro_ == accumulation_steps_) {
            micro_ = 0;
            finish_window();
        }
        return loss.item<double>();
    }

    int64_t steps() const { return steps_; }
    double loss_scale() const { return loss_scale_; }

private:
    void finish_window() {
        if (overflow_in_window_) {
            // skip the update and retry with a smaller scale
            loss_scale_ /= 2.0;
        } else {
            for (size_t k = 0; k < master_params_.size(); ++k) {
                master_params_[k].mutable_grad() = grad_buffers_[k].clone();
            }
            torch::nn::utils::clip_grad_norm_(master_params_, 1.0);
            optimizer_->step();
            optimizer_->zero_grad();
            torch::NoGradGuard no_grad;
            for (size_t k = 0; k < master_params_.size(); ++k) half_params_[k].copy_(master_params_[k]);
            steps_ += 1;
            if (steps_ % 2000 == 0) loss_scale_ *= 2.0;
        }
        for (auto& b : grad_buffers_) b.zero_();
        overflow_in_window_ = false;
    }

    ch4::GPTModel model_;
    std::vector<torch::Tensor> half_params_;
    std::vector<torch::Tensor> master_params_;
    std::vector<torch::Tensor> grad_buffers_;
    std::unique_ptr<torch::optim::AdamW> optimizer_;
    int64_t accumulation_steps_;
    double loss_scale_;
    int64_t micro_ = 0;
    int64_t steps_ = 0;
    bool overflow_in_window_ = false;
};

int main(int argc, char** argv) {
    const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
    const int64_t accumulation_steps = argc > 1 ? std::stoll(argv[1]) : 8;

    torch::manual_seed(123);
    ch4::GPTConfig cfg;
    cfg.context_length = 1024;
    cfg.emb_dim = 768;
    ch4::GPTModel model(cfg);
    model->to(device, torch::kHalf);

    ch2::BpeTokenizer tokenizer;
    std::string text(400000, 'e');
    auto train_loader = ch2::create_dataloader_v1(text, tokenizer, 2, 1024, 1024, true, true);

    MixedPrecisionTrainer trainer(model, 4e-4, 0.1, accumulation_steps);
    for (int epoch = 0; epoch < 3; ++epoch) {
        double total = 0.0;
        for (const auto& batch : train_loader) {
            total += trainer.train_batch({batch.inputs.to(device), batch.targets.to(device)});
        }
        std::cout << "Ep " << (epoch + 1) << ": loss " << total / train_loader.size() << ", steps " << trainer.steps()
                  << ", loss scale " << trainer.loss_scale() << "\n";
    }
    return 0;
}
