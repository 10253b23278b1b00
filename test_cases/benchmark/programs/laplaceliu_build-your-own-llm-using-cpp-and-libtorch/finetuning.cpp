// Chapter 6: fine-tuning the GPT model as a spam classifier.
// Only the last output token is classified; the last transformer block, the
// final norm and the new 2-class head are trainable.
// Batches of 8 messages are accumulated into windows of `accum_steps`.
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <vector>

#include "llm_book.h"

namespace ch6 {

struct SpamBatch {
    torch::Tensor inputs;  // [b, max_len]
    torch::Tensor labels;  // [b]
};

struct GPTClassifierImpl : torch::nn::Module {
    GPTClassifierImpl(const ch4::GPTConfig& cfg, int64_t num_classes) {
        gpt = register_module("gpt", ch4::GPTModel(cfg));
        gpt->out_head = gpt->replace_module(
            "out_head", torch::nn::Linear(torch::nn::LinearOptions(cfg.emb_dim, num_classes)));
    }
    torch::Tensor forward(const torch::Tensor& x) { return gpt->forward(x); }

    ch4::GPTModel gpt{nullptr};
};
TORCH_MODULE(GPTClassifier);

// Freeze everything except the last block, the final LayerNorm and the head.
inline void prepare_for_finetuning(GPTClassifier& model) {
    for (auto& p : model->parameters()) p.set_requires_grad(false);
    auto blocks = model->gpt->trf_blocks;
    for (auto& p : blocks[blocks->size() - 1]->parameters()) p.set_requires_grad(true);
    for (auto& p : model->gpt->final_norm->parameters()) p.set_requires_grad(true);
    for (auto& p : model->gpt->out_head->parameters()) p.set_requires_grad(true);
}

inline torch::Tensor calc_loss_batch(const torch::Tensor& input_batch, const torch::Tensor& target_batch,
                                     GPTClassifier& model) {
    auto logits = model->forward(input_batch).index(
        {torch::indexing::Slice(), -1, torch::indexing::Slice()});
    return torch::nn::functional::cross_entropy(logits, target_batch.to(logits.device()));
}

inline double calc_loss_loader(GPTClassifier& model, const std::vector<SpamBatch>& loader,
                               c10::optional<int64_t> num_batches = c10::nullopt) {
    if (loader.empty()) return std::numeric_limits<double>::quiet_NaN();
    const int64_t n = num_batches.has_value()
                          ? std::min(num_batches.value(), static_cast<int64_t>(loader.size()))
                          : static_cast<int64_t>(loader.size());
    double total = 0.0;
    torch::NoGradGuard g;
    model->eval();
    for (int64_t i = 0; i < n; ++i) total += calc_loss_batch(loader[i].inputs, loader[i].labels, model).item<double>();
    model->train();
    return total / n;
}

inline double calc_accuracy_loader(GPTClassifier& model, const std::vector<SpamBatch>& loader,
                                   c10::optional<int64_t> num_batches = c10::nullopt) {
    const int64_t n = num_batches.has_value()
                          ? std::min(num_batches.value(), static_cast<int64_t>(loader.size()))
                          : static_cast<int64_t>(loader.size());
    int64_t correct = 0, total = 0;
    torch::NoGradGuard g;
    model->eval();
    for (int64_t i = 0; i < n; ++i) {
        auto logits = model->forward(loader[i].inputs).index(
            {torch::indexing::Slice(), -1, torch::indexing::Slice()});
        auto predicted = torch::argmax(logits, -1).to(torch::kCPU);
        correct += (predicted == loader[i].labels.to(torch::kCPU)).sum().item<int64_t>();
        total += predicted.size(0);
    }
    model->train();
    return total > 0 ? static_cast<double>(correct) / total : 0.0;
}

inline std::pair<double, double> evaluate_model(GPTClassifier& model, const std::vector<SpamBatch>& train_loader,
                                                const std::vector<SpamBatch>& val_loader, int64_t eval_iter) {
    return {calc_loss_loader(model, train_loader, eval_iter), calc_loss_loader(model, val_loader, eval_iter)};
}

inline void train_classifier_simple(GPTClassifier& model, const std::vector<SpamBatch>& train_loader,
                                    const std::vector<SpamBatch>& val_loader, torch::optim::AdamW& optimizer,
                                    int64_t num_epochs, int64_t eval_freq, int64_t eval_iter,
                                    int64_t accum_steps) {
    int64_t examples_seen = 0;
    int64_t global_step = -1;
    const int64_t num_batches = static_cast<int64_t>(train_loader.size());
    const int64_t full_windows_end = num_batches - num_batches % accum_steps;

    for (int64_t epoch = 0; epoch < num_epochs; ++epoch) {
        model->train();
        for (int64_t i = 0; i < num_batches; ++i) {
            // a new window starts from empty gradients
            if (i % accum_steps == 0) optimizer.zero_grad();

            // the tail of the epoch forms a shorter window of its own
            const int64_t window = i < full_windows_end ? accum_steps : num_batches - full_windows_end;
            const auto& batch = train_loader[i];
            auto loss = calc_loss_batch(batch.inputs, batch.labels, model);
            (loss / static_cast<double>(window)).backward();
            examples_seen += batch.inputs.size(0);

            if ((i + 1) % accum_steps == 0 || i + 1 == num_batches) {
                optimizer.step();
                global_step += 1;

                if (global_step % eval_freq == 0) {
                    auto [tl, vl] = evaluate_model(model, train_loader, val_loader, eval_iter);
                    std::cout << "Ep " << (epoch + 1) << " (Step " << global_step << "): "
                              << "Train loss " << tl << ", Val loss " << vl << "\n";
                }
            }
        }
        const double train_acc = calc_accuracy_loader(model, train_loader, eval_iter);
        const double val_acc = calc_accuracy_loader(model, val_loader, eval_iter);
        std::cout << "Training accuracy: " << (train_acc * 100.0) << "% | "
                  << "Validation accuracy: " << (val_acc * 100.0) << "% | examples " << examples_seen << "\n";
    }
}

inline std::string classify_review(const std::string& text, GPTClassifier& model, ch2::BpeTokenizer& tokenizer,
                                   int64_t max_length, int64_t pad_token_id = 50256) {
    model->eval();
    auto ids = tokenizer.encode(text);
    std::vector<int64_t> input(ids.begin(), ids.end());
    if (static_cast<int64_t>(input.size()) > max_length) input.resize(max_length);
    while (static_cast<int64_t>(input.size()) < max_length) input.push_back(pad_token_id);
    auto x = torch::tensor(input).unsqueeze(0);
    torch::NoGradGuard g;
    auto logits = model->forward(x).index({torch::indexing::Slice(), -1, torch::indexing::Slice()});
    const int64_t label = torch::argmax(logits, -1).item<int64_t>();
    model->train();
    return label == 1 ? "spam" : "not spam";
}

}  // namespace ch6

void run_finetuning(const std::vector<ch6::SpamBatch>& train_loader, const std::vector<ch6::SpamBatch>& val_loader,
                    int64_t accum_steps) {
    torch::manual_seed(123);
    ch4::GPTConfig cfg;
    cfg.context_length = 1024;
    cfg.drop_rate = 0.0;
    cfg.qkv_bias = true;
    ch6::GPTClassifier model(cfg, /*num_classes=*/2);
    ch6::prepare_for_finetuning(model);

    std::vector<torch::Tensor> trainable;
    for (auto& p : model->parameters()) if (p.requires_grad()) trainable.push_back(p);
    torch::optim::AdamW optimizer(trainable, torch::optim::AdamWOptions(5e-5).weight_decay(0.1));

    ch6::train_classifier_simple(model, train_loader, val_loader, optimizer, /*num_epochs=*/5,
                                 /*eval_freq=*/50, /*eval_iter=*/5, accum_steps);
    torch::save(model, "review_classifier.pt");
}
