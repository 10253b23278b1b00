// gpt-sft training entry point, data-parallel over Gloo.
// Instruction batches are padded per batch and the prompt/padding positions
// are masked with -100, so ranks see different numbers of response tokens.
// The loss of a window is the summed token loss divided by the number of
// response tokens of the window on all ranks together: the token count is
// all-reduced first, and the gradients are then summed over the ranks.
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "llm_book.h"

struct Options {
    int64_t num_epochs = 2;
    int64_t batch_size = 4;
    double lr = 5e-5;
    int64_t accumulation_steps = 4;
    std::string output = "gpt2-sft.pt";
};

static Options parse_args(int argc, char* argv[]) {
    Options o;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i];
        if (k == "--epochs") o.num_epochs = std::stoll(argv[i + 1]);
        else if (k == "--batch-size") o.batch_size = std::stoll(argv[i + 1]);
        else if (k == "--lr") o.lr = std::stod(argv[i + 1]);
        else if (k == "--accum") o.accumulation_steps = std::stoll(argv[i + 1]);
        else if (k == "--output") o.output = argv[i + 1];
    }
    return o;
}

static torch::Tensor token_loss_sum(const ch7::InstructionBatch& batch, ch4::GPTModel& model) {
    auto logits = model->forward(batch.inputs);
    return torch::nn::functional::cross_entropy(
        logits.flatten(0, 1), batch.targets.flatten(),
        torch::nn::functional::CrossEntropyFuncOptions().ignore_index(-100).reduction(torch::kSum));
}

int main(int argc, char* argv[]) {
    const Options opt = parse_args(argc, argv);
    const int rank = std::getenv("RANK") ? std::atoi(std::getenv("RANK")) : 0;
    const int world = std::getenv("WORLD_SIZE") ? std::atoi(std::getenv("WORLD_SIZE")) : 1;
    auto store = c10::make_intrusive<c10d::FileStore>("/tmp/gpt_sft_store", world);
    auto pg_opts = c10d::ProcessGroupGloo::Options::create();
    pg_opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world, pg_opts);

    const torch::Device device(torch::kCPU);
    ch2::BpeTokenizer tokenizer;
    std::vector<ch7::InstructionEntry> data(1100, {"Name the capital.", "France", "Paris."});
    std::vector<ch7::InstructionEntry> shard;
    for (size_t i = rank; i < data.size(); i += world) shard.push_back(data[i]);
    ch7::InstructionDataset train_ds(shard, tokenizer);
    ch7::InstructionLoader loader(train_ds, opt.batch_size, true, true, 50256, 1024, device, 123 + rank);

    torch::manual_seed(123);
    ch4::GPTConfig cfg;
    cfg.context_length = 1024;
    cfg.drop_rate = 0.0;
    cfg.qkv_bias = true;
    ch4::GPTModel model(cfg);
    {
        torch::NoGradGuard ng;
        for (auto& p : model->parameters()) {
            std::vector<torch::Tensor> t{p.data()};
            pg->broadcast(t)->wait();
        }
    }
    torch::optim::AdamWOptions adamw(opt.lr);
    adamw.weight_decay(0.1);
    torch::optim::AdamW optimizer(model->parameters(), adamw);

    // equal number of windows on every rank
    const size_t windows = loader.size() / opt.accumulation_steps;
    int64_t global_step = 0;
    for (int64_t epoch = 0; epoch < opt.num_epochs; ++epoch) {
        model->train();
        for (size_t w = 0; w < windows; ++w) {
            const auto first = w * opt.accumulation_steps;

            // response tokens of this window, summed over all ranks (not gradients)
            int64_t local_tokens = 0;
            for (int64_t k = 0; k < opt.accumulation_steps; ++k)
                local_tokens += loader.batches()[first + k].targets.ne(-100).sum().item<int64_t>();
            std::vector<torch::Tensor> count{torch::tensor({static_cast<double>(local_tokens)})};
            pg->allreduce(count)->wait();
            const double window_tokens = count[0].item<double>();

            optimizer.zero_grad();
            double window_loss = 0.0;
            for (int64_t k = 0; k < opt.accumulation_steps; ++k) {
                auto loss_sum = token_loss_sum(loader.batches()[first + k], model);
                (loss_sum / window_tokens).backward();
                window_loss += loss_sum.item<double>();
            }

            // summed over ranks; the global token count already normalises
            std::vector<torch::Tensor> grads;
            for (auto& p : model->parameters()) if (p.grad().defined()) grads.push_back(p.grad());
            pg->allreduce_coalesced(grads)->wait();
            torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
            optimizer.step();
            global_step += 1;

            if (rank == 0 && global_step % 5 == 0) {
                std::cout << "Ep " << (epoch + 1) << " (Step " << global_step << "): local loss/token "
                          << window_loss / std::max<int64_t>(local_tokens, 1) << "\n";
            }
        }
    }
    if (rank == 0) torch::save(model, opt.output);
    return 0;
}
