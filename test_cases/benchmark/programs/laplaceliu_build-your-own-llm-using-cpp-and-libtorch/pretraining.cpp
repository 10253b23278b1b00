// Chapter 5: pretraining the GPT model on unlabeled text.
// text_to_token_ids / token_ids_to_text, calc_loss_batch / calc_loss_loader,
// evaluate_model, generate_and_print_sample and train_model_simple.
// train_model_simple groups `micro_batches` loader batches into one optimizer
// update and normalises by the number of target tokens of the whole group.
#include <torch/torch.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "llm_book.h"

namespace ch5 {

inline torch::Tensor text_to_token_ids(const std::string& text, ch2::BpeTokenizer& tokenizer) {
    auto encoded = tokenizer.encode(text, {"<|endoftext|>"});
    std::vector<int64_t> ids(encoded.begin(), encoded.end());
    return torch::tensor(ids, torch::kLong).unsqueeze(0);
}

inline std::string token_ids_to_text(const torch::Tensor& token_ids, ch2::BpeTokenizer& tokenizer) {
    auto flat = token_ids.squeeze(0);
    std::vector<int> ids;
    ids.reserve(flat.size(0));
    for (int64_t i = 0; i < flat.size(0); ++i) ids.push_back(flat.index({i}).item<int>());
    return tokenizer.decode(ids);
}

// Mean cross entropy of one batch (used for evaluation).
inline torch::Tensor calc_loss_batch(const torch::Tensor& input_batch, const torch::Tensor& target_batch,
                                     ch4::GPTModel& model) {
    auto logits = model->forward(input_batch);
    return torch::nn::functional::cross_entropy(logits.flatten(0, 1),
                                                target_batch.to(logits.device()).flatten());
}

// Summed cross entropy of one batch: the caller divides by the token count.
inline torch::Tensor calc_loss_batch_sum(const torch::Tensor& input_batch, const torch::Tensor& target_batch,
                                         ch4::GPTModel& model) {
    auto logits = model->forward(input_batch);
    return torch::nn::functional::cross_entropy(
        logits.flatten(0, 1), target_batch.to(logits.device()).flatten(),
        torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum));
}

inline double calc_loss_loader(ch4::GPTModel& model, const std::vector<ch2::GPTBatch>& loader,
                               c10::optional<int64_t> num_batches = c10::nullopt) {
    if (loader.empty()) return std::numeric_limits<double>::quiet_NaN();
    const int64_t n = num_batches.has_value()
                          ? std::min(num_batches.value(), static_cast<int64_t>(loader.size()))
                          : static_cast<int64_t>(loader.size());
    double total_loss = 0.0;
    torch::NoGradGuard no_grad;
    for (int64_t i = 0; i < n; ++i) {
        total_loss += calc_loss_batch(loader[i].inputs, loader[i].targets, model).item<double>();
    }
    return total_loss / n;
}

inline std::pair<double, double> evaluate_model(ch4::GPTModel& model,
                                                const std::vector<ch2::GPTBatch>& train_loader,
                                                const std::vector<ch2::GPTBatch>& val_loader,
                                                int64_t eval_iter) {
    model->eval();
    const double train_loss = calc_loss_loader(model, train_loader, eval_iter);
    const double val_loss = calc_loss_loader(model, val_loader, eval_iter);
    model->train();
    return {train_loss, val_loss};
}

inline void generate_and_print_sample(ch4::GPTModel& model, ch2::BpeTokenizer& tokenizer,
                                      const std::string& start_context) {
    model->eval();
    const int64_t context_size = model->pos_emb->weight.size(0);
    auto encoded = text_to_token_ids(start_context, tokenizer).to(model->tok_emb->weight.device());
    torch::Tensor token_ids;
    {
        torch::NoGradGuard no_grad;
        token_ids = ch4::generate_text_simple(model, encoded, /*max_new_tokens=*/50, context_size);
    }
    auto decoded = token_ids_to_text(token_ids.to(torch::kCPU), tokenizer);
    std::string one_line;
    for (char c : decoded) one_line += (c == '\n') ? ' ' : c;
    std::cout << one_line << "\n";
    model->train();
}

inline std::vector<double> train_model_simple(ch4::GPTModel& model,
                                              const std::vector<ch2::GPTBatch>& train_loader,
                                              const std::vector<ch2::GPTBatch>& val_loader,
                                              torch::optim::AdamW& optimizer, int64_t num_epochs,
                                              int64_t eval_freq, int64_t eval_iter,
                                              const std::string& start_context,
                                              ch2::BpeTokenizer& tokenizer, int64_t micro_batches) {
    std::vector<double> track_tokens_seen;
    int64_t tokens_seen = 0;
    int64_t global_step = -1;
    const size_t n_batches = train_loader.size();

    for (int64_t epoch = 0; epoch < num_epochs; ++epoch) {
        model->train();
        for (size_t start = 0; start < n_batches; start += micro_batches) {
            const size_t end = std::min(n_batches, start + static_cast<size_t>(micro_batches));

            // Every target of the group counts once in the mean.
            int64_t group_tokens = 0;
            for (size_t b = start; b < end; ++b) group_tokens += train_loader[b].targets.numel();

            optimizer.zero_grad();
            double group_loss = 0.0;
            for (size_t b = start; b < end; ++b) {
                const auto& batch = train_loader[b];
                auto loss_sum = calc_loss_batch_sum(batch.inputs, batch.targets, model);
                auto loss = loss_sum / static_cast<double>(group_tokens);
                loss.backward();
                group_loss += loss.item<double>();
                tokens_seen += batch.inputs.numel();
            }
            optimizer.step();
            global_step += 1;

            if (global_step % eval_freq == 0) {
                auto [train_loss, val_loss] = evaluate_model(model, train_loader, val_loader, eval_iter);
                std::cout << "Ep " << (epoch + 1) << " (Step " << global_step << "): group loss "
                          << group_loss << ", Train loss " << train_loss << ", Val loss " << val_loss
                          << "\n";
                track_tokens_seen.push_back(static_cast<double>(tokens_seen));
            }
        }
        generate_and_print_sample(model, tokenizer, start_context);
    }
    return track_tokens_seen;
}

}  // namespace ch5

int main(int argc, char** argv) {
    torch::manual_seed(123);
    ch4::GPTConfig cfg;
    cfg.context_length = 256;
    cfg.emb_dim = 256;
    cfg.n_heads = 4;
    cfg.n_layers = 4;
    const int64_t micro_batches = argc > 1 ? std::stoll(argv[1]) : 4;

    std::ifstream in("the-verdict.txt");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text_data = ss.str();
    const size_t split_idx = static_cast<size_t>(0.9 * text_data.size());

    ch2::BpeTokenizer tokenizer;
    auto train_loader = ch2::create_dataloader_v1(text_data.substr(0, split_idx), tokenizer, 2,
                                                  cfg.context_length, cfg.context_length, true, true);
    auto val_loader = ch2::create_dataloader_v1(text_data.substr(split_idx), tokenizer, 2,
                                                cfg.context_length, cfg.context_length, false, false);

    ch4::GPTModel model(cfg);
    torch::optim::AdamW optimizer(model->parameters(),
                                  torch::optim::AdamWOptions(0.0004).weight_decay(0.1));
    ch5::train_model_simple(model, train_loader, val_loader, optimizer, /*num_epochs=*/10,
                            /*eval_freq=*/5, /*eval_iter=*/5, "Every effort moves you", tokenizer,
                            micro_batches);
    torch::save(model, "model.pt");
    return 0;
}
