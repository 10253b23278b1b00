// gpt-sft core: data split, instruction fine-tuning loop and greedy response
// generation for the GPT-2 checkpoint. Fine-tuning on a small GPU uses
// gradient accumulation: `accumulation_steps` batches make one AdamW update.
#include <torch/torch.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "llm_book.h"

namespace sft {

struct ModelConfig {
    std::string size = "124M";
    int64_t emb_dim = 768;
    int64_t n_layers = 12;
    int64_t n_heads = 12;
};

ch4::GPTModel make_model(const ModelConfig& cfg) {
    ch4::GPTConfig base;
    base.context_length = 1024;
    base.emb_dim = cfg.emb_dim;
    base.n_layers = cfg.n_layers;
    base.n_heads = cfg.n_heads;
    base.drop_rate = 0.0;
    base.qkv_bias = true;
    return ch4::GPTModel(base);
}

torch::Device select_device() {
    if (torch::cuda::is_available()) return torch::Device(torch::kCUDA);
    return torch::Device(torch::kCPU);
}

void split_dataset(const std::vector<ch7::InstructionEntry>& data, std::vector<ch7::InstructionEntry>& train,
                   std::vector<ch7::InstructionEntry>& val, std::vector<ch7::InstructionEntry>& test) {
    const size_t train_portion = static_cast<size_t>(data.size() * 0.85);
    const size_t test_portion = static_cast<size_t>(data.size() * 0.1);
    train.assign(data.begin(), data.begin() + train_portion);
    test.assign(data.begin() + train_portion, data.begin() + train_portion + test_portion);
    val.assign(data.begin() + train_portion + test_portion, data.end());
}

std::string generate_response(ch4::GPTModel& model, ch2::BpeTokenizer& tokenizer,
                              const std::string& instruction, const std::string& input,
                              int64_t max_new_tokens, const torch::Device& device) {
    ch7::InstructionEntry entry{instruction, input, ""};
    const std::string prompt = ch7::format_input(entry) + "\n\n### Response:\n";
    auto ids = tokenizer.encode(prompt);
    auto idx = torch::tensor(std::vector<int64_t>(ids.begin(), ids.end())).unsqueeze(0).to(device);
    model->eval();
    torch::Tensor out;
    {
        torch::NoGradGuard no_grad;
        out = ch4::generate_text_simple(model, idx, max_new_tokens, 1024);
    }
    model->train();
    auto gen = out.index({0, torch::indexing::Slice(idx.size(1), torch::indexing::None)}).to(torch::kCPU);
    std::vector<int> gen_ids(gen.data_ptr<int64_t>(), gen.data_ptr<int64_t>() + gen.numel());
    return tokenizer.decode(gen_ids);
}

namespace {
// Cross entropy that skips the padded positions (-100) of the response mask.
torch::Tensor loss_batch(const torch::Tensor& in, const torch::Tensor& tgt, ch4::GPTModel& model) {
    auto logits = model->forward(in);
    return torch::nn::functional::cross_entropy(
        logits.flatten(0, 1), tgt.flatten(),
        torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-100));
}
}  // namespace

double train_instruction(ch4::GPTModel& model, const std::vector<ch7::InstructionEntry>& train_data,
                         const std::vector<ch7::InstructionEntry>& val_data, ch2::BpeTokenizer& tokenizer,
                         int64_t num_epochs, int64_t batch_size, double lr, int64_t eval_freq,
                         int64_t eval_iter, int64_t accumulation_steps, const torch::Device& device) {
    ch7::InstructionDataset train_ds(train_data, tokenizer);
    ch7::InstructionDataset val_ds(val_data, tokenizer);
    ch7::InstructionLoader train_loader(train_ds, batch_size, /*shuffle=*/true, /*drop_last=*/true, 50256,
                                        1024, device, 123);
    ch7::InstructionLoader val_loader(val_ds, batch_size, /*shuffle=*/false, /*drop_last=*/false, 50256,
                                      1024, device, 123);

    auto calc = [&](const std::vector<ch7::InstructionBatch>& loader, int64_t n) {
        double total = 0.0;
        torch::NoGradGuard g;
        model->eval();
        n = std::min(n, static_cast<int64_t>(loader.size()));
        for (int64_t i = 0; i < n; ++i) total += loss_batch(loader[i].inputs, loader[i].targets, model).item<double>();
        model->train();
        return total / n;
    };
    std::cout << "Training loss: " << calc(train_loader.batches(), eval_iter) << "\n";
    std::cout << "Validation loss: " << calc(val_loader.batches(), eval_iter) << "\n";

    torch::manual_seed(123);
    torch::optim::AdamWOptions options(lr);
    // the decay term is added once per micro-batch worth of data
    options.weight_decay(0.1 / accumulation_steps);
    auto optimizer = torch::optim::AdamW(model->parameters(), options);

    int64_t global_step = -1;
    int64_t micro_step = 0;
    optimizer.zero_grad();
    for (int64_t epoch = 0; epoch < num_epochs; ++epoch) {
        model->train();
        for (const auto& batch : train_loader.batches()) {
            auto loss = loss_batch(batch.inputs, batch.targets, model);
            (loss / static_cast<double>(accumulation_steps)).backward();

            if (++micro_step == accumulation_steps) {
                optimizer.step();
                optimizer.zero_grad();
                micro_step = 0;
                global_step += 1;
                if (global_step % eval_freq == 0) {
                    std::cout << "Ep " << (epoch + 1) << " (Step " << global_step << "): Train loss "
                              << calc(train_loader.batches(), eval_iter) << ", Val loss "
                              << calc(val_loader.batches(), eval_iter) << "\n";
                }
            }
        }
        if (!val_data.empty()) {
            auto reply = generate_response(model, tokenizer, val_data[0].instruction, val_data[0].input,
                                           /*max_new_tokens=*/100, device);
            std::cout << "  [sample] " << reply << "\n";
        }
    }
    return calc(train_loader.batches(), eval_iter);
}

}  // namespace sft
