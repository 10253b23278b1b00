// Appendix D: a richer training loop for the GPT model.
//   D.1 linear warm-up, D.2 cosine decay, D.3 gradient clipping,
//   D.4 train_model (replaces ch5::train_model_simple).
// This version trains with a larger effective batch: the gradients of
// `accumulation_steps` loader batches are summed before each AdamW step.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "llm_book.h"

namespace chD {

// Loss of one batch: next-token cross entropy over every position.
inline torch::Tensor calc_loss_batch(const torch::Tensor& input_batch,
                                     const torch::Tensor& target_batch,
                                     ch4::GPTModel& model) {
    auto logits = model->forward(input_batch);
    return torch::nn::functional::cross_entropy(
        logits.flatten(0, 1), target_batch.to(logits.device()).flatten());
}

inline double calc_loss_loader(ch4::GPTModel& model, const std::vector<ch2::GPTBatch>& loader,
                               int64_t num_batches) {
    if (loader.empty()) return std::numeric_limits<double>::quiet_NaN();
    const int64_t n = std::min(num_batches, static_cast<int64_t>(loader.size()));
    double total = 0.0;
    for (int64_t i = 0; i < n; ++i) {
        total += calc_loss_batch(loader[i].inputs, loader[i].targets, model).item<double>();
    }
    return total / n;
}

inline std::pair<double, double> evaluate_model(ch4::GPTModel& model,
                                                const std::vector<ch2::GPTBatch>& train_loader,
                                                const std::vector<ch2::GPTBatch>& val_loader,
                                                int64_t eval_iter) {
    model->eval();
    torch::NoGradGuard no_grad;
    double train_loss = calc_loss_loader(model, train_loader, eval_iter);
    double val_loss = calc_loss_loader(model, val_loader, eval_iter);
    model->train();
    return {train_loss, val_loss};
}

inline void generate_and_print_sample(ch4::GPTModel& model, ch2::BpeTokenizer& tokenizer,
                                      const std::string& start_context) {
    model->eval();
    const int64_t context_size = model->pos_emb->weight.size(0);
    auto ids = tokenizer.encode(start_context, {"<|endoftext|>"});
    auto encoded = torch::tensor(std::vector<int64_t>(ids.begin(), ids.end())).unsqueeze(0)
                       .to(model->tok_emb->weight.device());
    torch::Tensor token_ids;
    {
        torch::NoGradGuard no_grad;
        token_ids = ch4::generate_text_simple(model, encoded, 50, context_size);
    }
    auto flat = token_ids.squeeze(0).to(torch::kCPU);
    std::vector<int> out(flat.data_ptr<int64_t>(), flat.data_ptr<int64_t>() + flat.numel());
    std::string text = tokenizer.decode(out);
    for (auto& c : text) if (c == '\n') c = ' ';
    std::cout << text << "\n";
    model->train();
}

// D.1 / D.2: warm-up then cosine decay down to lr_min; constant after max_steps.
inline double get_lr(int64_t step, double warmup_steps, double max_steps,
                     double lr_min, double lr_max) {
    if (step < warmup_steps) {
        return lr_max * (static_cast<double>(step) + 1.0) / warmup_steps;
    }
    if (step > max_steps) {
        return lr_min;
    }
    const double progress = static_cast<double>(step - warmup_steps) / (max_steps - warmup_steps);
    const double coeff = 0.5 * (1.0 + std::cos(M_PI * progress));
    return lr_min + coeff * (lr_max - lr_min);
}

// D.3: global L2 norm over every gradient, then an in-place rescale.
inline double calc_norm_of_grads(const std::vector<torch::Tensor>& parameters) {
    double total_sq = 0.0;
    for (const auto& p : parameters) {
        if (p.grad().defined()) {
            const double n = p.grad().norm(2).item<double>();
            total_sq += n * n;
        }
    }
    return std::sqrt(total_sq);
}

inline double clip_gradients(std::vector<torch::Tensor> parameters, double max_norm) {
    const double total_norm = calc_norm_of_grads(parameters);
    const double clip_factor = max_norm / (total_norm + 1e-5);
    if (clip_factor < 1.0) {
        for (auto& p : parameters) {
            if (p.grad().defined()) p.grad().mul_(clip_factor);
        }
    }
    return total_norm;
}

// D.4: the training function. global_step counts optimizer steps.
inline std::pair<std::vector<double>, std::vector<double>> train_model(
    ch4::GPTModel& model,
    const std::vector<ch2::GPTBatch>& train_loader,
    const std::vector<ch2::GPTBatch>& val_loader,
    ch2::BpeTokenizer& tokenizer,
    int64_t num_epochs, int64_t eval_freq, int64_t eval_iter,
    int64_t warmup_steps, int64_t max_steps,
    double lr_min, double lr_max, double max_norm,
    int64_t accumulation_steps,
    const std::string& start_context = "Every effort moves you") {

    std::vector<double> train_losses;
    std::vector<double> val_losses;

    std::vector<torch::Tensor> parameters;
    for (auto& p : model->parameters()) {
        if (p.requires_grad()) parameters.push_back(p);
    }

    torch::optim::AdamW optimizer(
        parameters, torch::optim::AdamWOptions(lr_max).betas({0.9, 0.95}).weight_decay(0.1));

    int64_t global_step = 0;
    int64_t tokens_seen = 0;
    double norm = 0.0;

    for (int64_t epoch = 0; epoch < num_epochs; ++epoch) {
        model->train();
        std::cout << "Epoch " << (epoch + 1) << "\n";
        optimizer.zero_grad();

        for (size_t i = 0; i < train_loader.size(); ++i) {
            // 1) learning rate of the optimizer step this batch belongs to
            const double lr = get_lr(global_step, warmup_steps, max_steps, lr_min, lr_max);
            for (auto& g : optimizer.param_groups()) {
                static_cast<torch::optim::AdamWOptions&>(g.options()).lr(lr);
            }

            // 2) forward + backward, each batch weighted 1/accumulation_steps
            const auto& batch = train_loader[i];
            auto loss = calc_loss_batch(batch.inputs, batch.targets, model);
            (loss / static_cast<double>(accumulation_steps)).backward();
            tokens_seen += batch.inputs.numel();

            // 3) keep the update bounded
            norm = clip_gradients(parameters, max_norm);

            // 4) one AdamW step per window of batches
            const bool last_batch = i + 1 == train_loader.size();
            if ((i + 1) % accumulation_steps == 0 || last_batch) {
                optimizer.step();
                optimizer.zero_grad();
                global_step += 1;

                if (global_step % eval_freq == 0) {
                    auto [tl, vl] = evaluate_model(model, train_loader, val_loader, eval_iter);
                    std::cout << "Ep " << (epoch + 1) << " | step " << global_step
                              << " | lr " << lr << " | grad_norm " << norm
                              << " | tokens " << tokens_seen
                              << " | train_loss " << tl << " | val_loss " << vl << "\n";
                    train_losses.push_back(tl);
                    val_losses.push_back(vl);
                }
                if (global_step % (5 * eval_freq) == 0) {
                    generate_and_print_sample(model, tokenizer, start_context);
                }
            }

            if (global_step >= max_steps) break;
        }
        if (global_step >= max_steps) break;
    }
    return {train_losses, val_losses};
}

}  // namespace chD
