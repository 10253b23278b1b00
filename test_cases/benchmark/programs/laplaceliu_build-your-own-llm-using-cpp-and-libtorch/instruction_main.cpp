// Chapter 7: instruction fine-tuning of GPT-2 medium on the Alpaca-style
// instruction data. The training loop is wrapped in a small trainer that
// owns the optimizer, a linear warm-up/decay schedule and the accumulation
// counter (8 examples per batch, `accumulation_steps` batches per update).
#include <torch/torch.h>

#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "llm_book.h"

// Linear warm-up to the base rate over `warmup` steps, then linear decay to 0
// at `total` steps.
class LinearWarmupScheduler : public torch::optim::LRScheduler {
public:
    LinearWarmupScheduler(torch::optim::Optimizer& optimizer, unsigned warmup, unsigned total, double base_lr)
        : torch::optim::LRScheduler(optimizer), warmup_(warmup), total_(total), base_lr_(base_lr) {}

private:
    std::vector<double> get_lrs() override {
        double factor;
        if (step_count_ < warmup_) {
            factor = static_cast<double>(step_count_ + 1) / warmup_;
        } else {
            factor = std::max(0.0, static_cast<double>(total_ - step_count_) / (total_ - warmup_));
        }
        return std::vector<double>(get_current_lrs().size(), base_lr_ * factor);
    }
    unsigned warmup_;
    unsigned total_;
    double base_lr_;
};

torch::Tensor calc_loss_batch(const torch::Tensor& input_batch, const torch::Tensor& target_batch,
                              ch4::GPTModel& model) {
    auto logits = model->forward(input_batch);
    return torch::nn::functional::cross_entropy(
        logits.flatten(0, 1), target_batch.flatten(),
        torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-100));
}

double calc_loss_loader(ch4::GPTModel& model, const std::vector<ch7::InstructionBatch>& loader, int64_t num_batches) {
    if (loader.empty()) return std::numeric_limits<double>::quiet_NaN();
    const int64_t n = std::min(num_batches, static_cast<int64_t>(loader.size()));
    double total = 0.0;
    torch::NoGradGuard g;
    model->eval();
    for (int64_t i = 0; i < n; ++i) total += calc_loss_batch(loader[i].inputs, loader[i].targets, model).item<double>();
    model->train();
    return total / n;
}

class InstructionTrainer {
public:
    InstructionTrainer(ch4::GPTModel model, double lr, int64_t accumulation_steps, unsigned warmup_steps,
                       unsigned total_steps)
        : model_(std::move(model)),
          optimizer_(model_->parameters(), torch::optim::AdamWOptions(lr).weight_decay(0.1)),
          scheduler_(optimizer_, warmup_steps, total_steps, lr),
          accumulation_steps_(accumulation_steps) {}

    // Forward/backward of one batch; AdamW steps when the window is full.
    double train_step(const ch7::InstructionBatch& batch) {
        auto loss = calc_loss_batch(batch.inputs, batch.targets, model_);
        (loss / static_cast<double>(accumulation_steps_)).backward();
        scheduler_.step();

        accum_count_ += 1;
        if (accum_count_ == accumulation_steps_) {
            torch::nn::utils::clip_grad_norm_(model_->parameters(), 1.0);
            optimizer_.step();
            optimizer_.zero_grad();
            accum_count_ = 0;
            global_step_ += 1;
        }
        return loss.item<double>();
    }

    double current_lr() {
        return static_cast<torch::optim::AdamWOptions&>(optimizer_.param_groups()[0].options()).lr();
    }
    int64_t global_step() const { return global_step_; }
    ch4::GPTModel& model() { return model_; }

private:
    ch4::GPTModel model_;
    torch::optim::AdamW optimizer_;
    LinearWarmupScheduler scheduler_;
    int64_t accumulation_steps_;
    int64_t accum_count_ = 0;
    int64_t global_step_ = 0;
};

void train_model_simple(InstructionTrainer& trainer, const std::vector<ch7::InstructionBatch>& train_loader,
                        const std::vector<ch7::InstructionBatch>& val_loader, int64_t num_epochs,
                        int64_t eval_freq, int64_t eval_iter, const std::string& start_context,
                        ch2::BpeTokenizer& tokenizer) {
    auto& model = trainer.model();
    const torch::Device dev = model->tok_emb->weight.device();
    int64_t last_logged = -1;
    for (int64_t epoch = 0; epoch < num_epochs; ++epoch) {
        model->train();
        for (const auto& batch : train_loader) {
            trainer.train_step(batch);
            const int64_t step = trainer.global_step();
            if (step != last_logged && step % eval_freq == 0) {
                last_logged = step;
                std::cout << "Ep " << (epoch + 1) << " (Step " << std::setw(6) << std::setfill('0') << step
                          << "): lr " << trainer.current_lr() << ", Train loss "
                          << calc_loss_loader(model, train_loader, eval_iter) << ", Val loss "
                          << calc_loss_loader(model, val_loader, eval_iter) << "\n";
            }
        }
        model->eval();
        auto ids = tokenizer.encode(start_context);
        auto encoded = torch::tensor(std::vector<int64_t>(ids.begin(), ids.end())).unsqueeze(0).to(dev);
        torch::Tensor token_ids;
        {
            torch::NoGradGuard g;
            token_ids = ch4::generate_text_simple(model, encoded, 100, 1024);
        }
        auto out = token_ids.squeeze(0).to(torch::kCPU);
        std::vector<int> out_ids(out.data_ptr<int64_t>(), out.data_ptr<int64_t>() + out.numel());
        std::cout << tokenizer.decode(out_ids).substr(start_context.size()) << "\n";
        model->train();
    }
}

int main(int argc, char** argv) {
    const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
    const int64_t accumulation_steps = argc > 1 ? std::stoll(argv[1]) : 4;
    ch2::BpeTokenizer tokenizer;

    std::vector<ch7::InstructionEntry> data(1100, {"Rewrite the sentence.", "The chef cooks.", "The meal is cooked."});
    const size_t train_portion = static_cast<size_t>(data.size() * 0.85);
    const size_t test_portion = static_cast<size_t>(data.size() * 0.1);
    std::vector<ch7::InstructionEntry> train_data(data.begin(), data.begin() + train_portion);
    std::vector<ch7::InstructionEntry> val_data(data.begin() + train_portion + test_portion, data.end());

    ch7::InstructionDataset train_ds(train_data, tokenizer);
    ch7::InstructionDataset val_ds(val_data, tokenizer);
    ch7::InstructionLoader train_loader(train_ds, 8, true, true, 50256, 1024, device, 123);
    ch7::InstructionLoader val_loader(val_ds, 8, false, false, 50256, 1024, device, 123);

    ch4::GPTConfig cfg;
    cfg.context_length = 1024;
    cfg.drop_rate = 0.0;
    cfg.qkv_bias = true;
    cfg.emb_dim = 1024;
    cfg.n_layers = 24;
    cfg.n_heads = 16;
    ch4::GPTModel model(cfg);
    model->to(device);

    const int64_t num_epochs = 2;
    const unsigned total_steps =
        static_cast<unsigned>(num_epochs * train_loader.size() / accumulation_steps);
    torch::manual_seed(123);
    InstructionTrainer trainer(model, 5e-5, accumulation_steps, /*warmup_steps=*/total_steps / 10, total_steps);
    train_model_simple(trainer, train_loader.batches(), val_loader.batches(), num_epochs, 5, 5,
                       ch7::format_input(val_data[0]), tokenizer);
    torch::save(model, "gpt2-medium355M-sft.pt");
    return 0;
}
