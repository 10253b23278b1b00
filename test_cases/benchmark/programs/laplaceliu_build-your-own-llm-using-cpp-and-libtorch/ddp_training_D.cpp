// Appendix D training loop (warm-up + cosine decay + gradient clipping) as a
// small data-parallel trainer over Gloo. Each rank owns a shard; a step
// gathers `micro_batches` backward passes per rank, sums them over the ranks
// in one flattened all-reduce, clips the global gradient and steps AdamW.
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "llm_book.h"

namespace chD {

inline double get_lr(int64_t step, double warmup_steps, double max_steps, double lr_min, double lr_max) {
    if (step < warmup_steps) return lr_max * (static_cast<double>(step) + 1.0) / warmup_steps;
    if (step > max_steps) return lr_min;
    const double ratio = static_cast<double>(step - warmup_steps) / (max_steps - warmup_steps);
    return lr_min + 0.5 * (1.0 + std::cos(M_PI * ratio)) * (lr_max - lr_min);
}

struct TrainConfig {
    int64_t warmup_steps = 20;
    int64_t max_steps = 2000;
    double lr_min = 1e-5;
    double lr_max = 5e-4;
    double max_norm = 1.0;
    int64_t micro_batches = 4;
    int64_t eval_freq = 10;
};

class DistributedTrainer {
public:
    DistributedTrainer(ch4::GPTModel model, c10::intrusive_ptr<c10d::ProcessGroup> pg, TrainConfig cfg)
        : model_(std::move(model)),
          pg_(std::move(pg)),
          cfg_(cfg),
          optimizer_(model_->parameters(),
                     torch::optim::AdamWOptions(cfg.lr_max).betas({0.9, 0.95}).weight_decay(0.1)) {
        for (auto& p : model_->parameters()) if (p.requires_grad()) params_.push_back(p);
        world_size_ = pg_->getSize();
        optimizer_.zero_grad();
    }

    // One loader batch. Returns true when it closed an optimizer step.
    bool train_batch(const ch2::GPTBatch& batch) {
        auto logits = model_->forward(batch.inputs);
        auto loss = torch::nn::functional::cross_entropy(logits.flatten(0, 1), batch.targets.flatten());
        // summed over ranks below, so each contribution is 1 / (micro_batches * world)
        (loss / static_cast<double>(cfg_.micro_batches * world_size_)).backward();
        running_loss_ += loss.item<double>();

        if (++micro_ < cfg_.micro_batches) return false;
        micro_ = 0;

        sum_gradients_across_ranks();
        last_norm_ = torch::nn::utils::clip_grad_norm_(params_, cfg_.max_norm);

        const double lr = get_lr(global_step_, cfg_.warmup_steps, cfg_.max_steps, cfg_.lr_min, cfg_.lr_max);
        for (auto& g : optimizer_.param_groups()) static_cast<torch::optim::AdamWOptions&>(g.options()).lr(lr);
        optimizer_.step();
        optimizer_.zero_grad();
        global_step_ += 1;

        if (pg_->getRank() == 0 && global_step_ % cfg_.eval_freq == 0) {
            std::cout << "step " << global_step_ << " | lr " << lr << " | grad_norm " << last_norm_
                      << " | train_loss " << running_loss_ / cfg_.micro_batches << "\n";
        }
        running_loss_ = 0.0;
        return true;
    }

    int64_t global_step() const { return global_step_; }

private:
    // One coalesced SUM all-reduce over a flat copy of all gradients.
    void sum_gradients_across_ranks() {
        std::vector<torch::Tensor> grads;
        for (auto& p : params_) grads.push_back(p.grad().reshape({-1}));
        auto flat = torch::cat(grads);
        std::vector<torch::Tensor> bucket{flat};
        pg_->allreduce(bucket)->wait();
        int64_t offset = 0;
        for (auto& p : params_) {
            const int64_t n = p.numel();
            p.grad().copy_(flat.narrow(0, offset, n).view_as(p));
            offset += n;
        }
    }

    ch4::GPTModel model_;
    c10::intrusive_ptr<c10d::ProcessGroup> pg_;
    TrainConfig cfg_;
    torch::optim::AdamW optimizer_;
    std::vector<torch::Tensor> params_;
    int world_size_ = 1;
    int64_t micro_ = 0;
    int64_t global_step_ = 0;
    double running_loss_ = 0.0;
    double last_norm_ = 0.0;
};

}  // namespace chD

int main() {
    const int rank = std::getenv("RANK") ? std::atoi(std::getenv("RANK")) : 0;
    const int world = std::getenv("WORLD_SIZE") ? std::atoi(std::getenv("WORLD_SIZE")) : 1;
    auto store = c10::make_intrusive<c10d::FileStore>("/tmp/chD_store", world);
    auto opts = c10d::ProcessGroupGloo::Options::create();
    opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    c10::intrusive_ptr<c10d::ProcessGroup> pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world, opts);

    torch::manual_seed(123);
    ch4::GPTConfig cfg;
    cfg.context_length = 256;
    cfg.emb_dim = 384;
    cfg.n_heads = 6;
    cfg.n_layers = 6;
    ch4::GPTModel model(cfg);
    {
        torch::NoGradGuard ng;
        for (auto& p : model->parameters()) {
            std::vector<torch::Tensor> t{p.data()};
            pg->broadcast(t)->wait();
        }
    }

    ch2::BpeTokenizer tokenizer;
    std::string text(200000, 'a');
    auto batches = ch2::create_dataloader_v1(text, tokenizer, 4, 256, 256, true, true);

    chD::TrainConfig tcfg;
    chD::DistributedTrainer trainer(model, pg, tcfg);
    for (int epoch = 0; epoch < 4 && trainer.global_step() < tcfg.max_steps; ++epoch) {
        const size_t per_rank = batches.size() / world;
        for (size_t k = 0; k < per_rank; ++k) {
            trainer.train_batch(batches[k * world + rank]);
        }
    }
    return 0;
}
