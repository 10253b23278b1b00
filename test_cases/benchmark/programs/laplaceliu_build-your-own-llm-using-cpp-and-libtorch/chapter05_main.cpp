// Chapter 5 driver: pretrains GPT-124M (context 256) on "The Verdict",
// printing train/val losses and a sample after each epoch, then saves the
// model and optimizer state. An update is made every `grad_accum` batches;
// the micro-batch counter runs on across epochs.
#include <torch/torch.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "llm_book.h"

namespace {

torch::Tensor calc_loss_batch(const ch2::GPTBatch& batch, ch4::GPTModel& model) {
    auto logits = model->forward(batch.inputs);
    return torch::nn::functional::cross_entropy(logits.flatten(0, 1), batch.targets.flatten());
}

double calc_loss_loader(ch4::GPTModel& model, const std::vector<ch2::GPTBatch>& loader, int64_t num_batches) {
    torch::NoGradGuard no_grad;
    const int64_t n = std::min<int64_t>(num_batches, loader.size());
    double total = 0.0;
    for (int64_t i = 0; i < n; ++i) total += calc_loss_batch(loader[i], model).item<double>();
    return n ? total / n : std::numeric_limits<double>::quiet_NaN();
}

void generate_and_print_sample(ch4::GPTModel& model, ch2::BpeTokenizer& tokenizer, const std::string& start_context) {
    model->eval();
    auto ids = tokenizer.encode(start_context);
    auto idx = torch::tensor(std::vector<int64_t>(ids.begin(), ids.end())).unsqueeze(0);
    torch::Tensor out;
    {
        torch::NoGradGuard no_grad;
        out = ch4::generate_text_simple(model, idx, 50, model->pos_emb->weight.size(0));
    }
    auto flat = out.squeeze(0);
    std::vector<int> out_ids(flat.data_ptr<int64_t>(), flat.data_ptr<int64_t>() + flat.numel());
    std::cout << tokenizer.decode(out_ids) << "\n";
    model->train();
}

}  // namespace

int main(int argc, char** argv) {
    const int64_t grad_accum = argc > 1 ? std::stoll(argv[1]) : 4;
    const int64_t num_epochs = 10, eval_freq = 5, eval_iter = 5;

    torch::manual_seed(123);
    ch4::GPTConfig cfg;
    cfg.context_length = 256;
    ch4::GPTModel model(cfg);

    std::ifstream in("the-verdict.txt");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    const size_t split_idx = static_cast<size_t>(0.9 * text.size());
    ch2::BpeTokenizer tokenizer;
    auto train_loader = ch2::create_dataloader_v1(text.substr(0, split_idx), tokenizer, 2, 256, 256, true, true);
    auto val_loader = ch2::create_dataloader_v1(text.substr(split_idx), tokenizer, 2, 256, 256, false, false);

    torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(0.0004).weight_decay(0.1));

    int64_t micro_batches = 0;
    int64_t global_step = -1;
    int64_t tokens_seen = 0;
    model->zero_grad();
    for (int64_t epoch = 0; epoch < num_epochs; ++epoch) {
        model->train();
        for (const auto& batch : train_loader) {
            auto loss = calc_loss_batch(batch, model);
            torch::autograd::backward({loss / static_cast<double>(grad_accum)});
            tokens_seen += batch.inputs.numel();
            micro_batches += 1;

            if (micro_batches % grad_accum != 0) continue;

            optimizer.step();
            model->zero_grad();
            global_step += 1;
            if (global_step % eval_freq == 0) {
                model->eval();
                const double tl = calc_loss_loader(model, train_loader, eval_iter);
                const double vl = calc_loss_loader(model, val_loader, eval_iter);
                model->train();
                std::cout << "Ep " << (epoch + 1) << " (Step " << global_step << "): Train loss " << tl
                          << ", Val loss " << vl << ", tokens " << tokens_seen << "\n";
            }
        }
        generate_and_print_sample(model, tokenizer, "Every effort moves you");
    }

    torch::save(model, "model.pt");
    torch::save(optimizer, "optimizer.pt");
    return 0;
}
