// Appendix D driver: pretrains the small GPT on "The Verdict" with the
// appendix's warm-up + cosine schedule and gradient clipping, using
// gradient accumulation so that 2-sample loader batches make 8-sample steps.
#include <torch/torch.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "llm_book.h"

namespace chD {

inline double get_lr(int64_t step, double warmup_steps, double max_steps, double lr_min, double lr_max) {
    if (step < warmup_steps) return lr_max * (static_cast<double>(step) + 1.0) / warmup_steps;
    if (step > max_steps) return lr_min;
    const double decay_ratio = static_cast<double>(step - warmup_steps) / (max_steps - warmup_steps);
    return lr_min + 0.5 * (1.0 + std::cos(M_PI * decay_ratio)) * (lr_max - lr_min);
}

inline void print_lr(int64_t step, double lr, int64_t eval_every) {
    if (step % eval_every == 0) std::cout << "  step " << step << " | lr = " << lr << "\n";
}

inline torch::Tensor calc_loss_batch(const ch2::GPTBatch& batch, ch4::GPTModel& model) {
    auto logits = model->forward(batch.inputs);
    return torch::nn::functional::cross_entropy(logits.flatten(0, 1), batch.targets.flatten());
}

inline double evaluate(ch4::GPTModel& model, const std::vector<ch2::GPTBatch>& loader, int64_t eval_iter) {
    torch::NoGradGuard no_grad;
    model->eval();
    const int64_t n = std::min<int64_t>(eval_iter, loader.size());
    double total = 0.0;
    for (int64_t i = 0; i < n; ++i) total += calc_loss_batch(loader[i], model).item<double>();
    model->train();
    return n ? total / n : 0.0;
}

}  // namespace chD

int main(int argc, char** argv) {
    torch::manual_seed(123);
    const int64_t accum = argc > 1 ? std::stoll(argv[1]) : 4;
    const int64_t num_epochs = 15;
    const double lr_max = 5e-4, lr_min = 1e-5, max_norm = 1.0;

    ch4::GPTConfig cfg;
    cfg.context_length = 256;
    cfg.emb_dim = 768;
    ch4::GPTModel model(cfg);

    std::ifstream in("the-verdict.txt");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    const size_t split = static_cast<size_t>(0.9 * text.size());
    ch2::BpeTokenizer tokenizer;
    auto train_loader = ch2::create_dataloader_v1(text.substr(0, split), tokenizer, 2, 256, 256, true, true);
    auto val_loader = ch2::create_dataloader_v1(text.substr(split), tokenizer, 2, 256, 256, false, false);

    // the schedule is planned in optimizer steps
    const int64_t steps_per_epoch = static_cast<int64_t>(train_loader.size()) / accum;
    const int64_t max_steps = num_epochs * steps_per_epoch;
    const int64_t warmup_steps = max_steps / 5;

    torch::optim::AdamW optimizer(model->parameters(),
                                  torch::optim::AdamWOptions(lr_max).betas({0.9, 0.95}).weight_decay(0.1));

    int64_t global_step = 0;
    for (int64_t epoch = 0; epoch < num_epochs; ++epoch) {
        model->train();
        optimizer.zero_grad();
        for (size_t i = 0; i < train_loader.size(); ++i) {
            const double lr = chD::get_lr(global_step, warmup_steps, max_steps, lr_min, lr_max);
            for (auto& g : optimizer.param_groups()) static_cast<torch::optim::AdamWOptions&>(g.options()).lr(lr);
            global_step += 1;

            auto loss = chD::calc_loss_batch(train_loader[i], model);
            (loss / accum).backward();

            if ((i + 1) % accum == 0) {
                torch::nn::utils::clip_grad_norm_(model->parameters(), max_norm);
                optimizer.step();
                optimizer.zero_grad();
                chD::print_lr(global_step, lr, 20);
            }
        }
        std::cout << "Ep " << (epoch + 1) << " | val_loss " << chD::evaluate(model, val_loader, 5) << "\n";
    }
    torch::save(model, "model_D.pt");
    return 0;
}
