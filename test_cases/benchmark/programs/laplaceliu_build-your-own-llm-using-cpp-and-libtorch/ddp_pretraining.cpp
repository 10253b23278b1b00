// Chapter 5 pretraining, run data-parallel on several CPU processes.
// LibTorch has no DistributedDataParallel, so every rank builds the same model,
// trains on its own shard of the batches and the gradients are averaged over
// a Gloo process group before AdamW steps. Each rank also accumulates
// `accum_steps` batches per step to reach the book's effective batch size.
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "llm_book.h"

namespace {

int env_int(const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v ? std::atoi(v) : fallback;
}

c10::intrusive_ptr<c10d::ProcessGroupGloo> init_process_group(int rank, int world_size) {
    const char* init_file = std::getenv("DIST_INIT_FILE");
    auto store = c10::make_intrusive<c10d::FileStore>(init_file ? init_file : "/tmp/gpt_ddp_store", world_size);
    auto options = c10d::ProcessGroupGloo::Options::create();
    options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    return c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size, options);
}

// Sum every gradient over the ranks, then divide by the number of ranks.
void average_gradients(ch4::GPTModel& model, c10d::ProcessGroupGloo& pg) {
    const int world = pg.getSize();
    for (auto& p : model->parameters()) {
        if (!p.grad().defined()) continue;
        std::vector<torch::Tensor> bucket{p.grad()};
        pg.allreduce(bucket)->wait();
        p.grad().div_(world);
    }
}

// Keep the initial weights identical on every rank.
void broadcast_parameters(ch4::GPTModel& model, c10d::ProcessGroupGloo& pg) {
    torch::NoGradGuard no_grad;
    for (auto& p : model->parameters()) {
        std::vector<torch::Tensor> t{p.data()};
        pg.broadcast(t)->wait();
    }
}

torch::Tensor calc_loss_batch(const torch::Tensor& input_batch, const torch::Tensor& target_batch,
                              ch4::GPTModel& model) {
    auto logits = model->forward(input_batch);
    return torch::nn::functional::cross_entropy(logits.flatten(0, 1), target_batch.flatten());
}

double calc_loss_loader(ch4::GPTModel& model, const std::vector<ch2::GPTBatch>& loader, int64_t n) {
    n = std::min<int64_t>(n, loader.size());
    if (n == 0) return std::numeric_limits<double>::quiet_NaN();
    double total = 0.0;
    torch::NoGradGuard no_grad;
    model->eval();
    for (int64_t i = 0; i < n; ++i) total += calc_loss_batch(loader[i].inputs, loader[i].targets, model).item<double>();
    model->train();
    return total / n;
}

}  // namespace

void train_model_ddp(ch4::GPTModel& model, const std::vector<ch2::GPTBatch>& shard,
                     const std::vector<ch2::GPTBatch>& val_loader, torch::optim::AdamW& optimizer,
                     c10d::ProcessGroupGloo& pg, int64_t num_epochs, int64_t eval_freq, int64_t eval_iter,
                     int64_t accum_steps) {
    const int rank = pg.getRank();
    int64_t tokens_seen = 0;
    int64_t global_step = -1;
    int64_t local_step = 0;

    optimizer.zero_grad();
    for (int64_t epoch = 0; epoch < num_epochs; ++epoch) {
        model->train();
        for (const auto& batch : shard) {
            auto loss = calc_loss_batch(batch.inputs, batch.targets, model) / accum_steps;
            loss.backward();
            average_gradients(model, pg);
            tokens_seen += batch.inputs.numel() * pg.getSize();

            const bool sync_step = (local_step + 1) % accum_steps == 0;
            local_step += 1;
            if (!sync_step) continue;

            optimizer.step();
            optimizer.zero_grad();
            global_step += 1;

            if (rank == 0 && global_step % eval_freq == 0) {
                std::cout << "Ep " << (epoch + 1) << " (Step " << global_step << "): Train loss "
                          << calc_loss_loader(model, shard, eval_iter) << ", Val loss "
                          << calc_loss_loader(model, val_loader, eval_iter) << ", tokens " << tokens_seen << "\n";
            }
        }
    }
}

int main() {
    const int rank = env_int("RANK", 0);
    const int world_size = env_int("WORLD_SIZE", 1);
    const int64_t accum_steps = env_int("ACCUM_STEPS", 4);
    auto pg = init_process_group(rank, world_size);

    torch::manual_seed(123);
    ch4::GPTConfig cfg;
    cfg.context_length = 256;
    ch4::GPTModel model(cfg);
    broadcast_parameters(model, *pg);

    std::ifstream in("the-verdict.txt");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    const size_t split_idx = static_cast<size_t>(0.9 * text.size());
    ch2::BpeTokenizer tokenizer;
    auto all_batches = ch2::create_dataloader_v1(text.substr(0, split_idx), tokenizer, 2, 256, 256, true, true);
    auto val_loader = ch2::create_dataloader_v1(text.substr(split_idx), tokenizer, 2, 256, 256, false, false);

    // every rank sees the same number of batches
    std::vector<ch2::GPTBatch> shard;
    const size_t per_rank = all_batches.size() / world_size;
    for (size_t i = 0; i < per_rank; ++i) shard.push_back(all_batches[i * world_size + rank]);

    torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(0.0004).weight_decay(0.1));
    train_model_ddp(model, shard, val_loader, optimizer, *pg, /*num_epochs=*/10, /*eval_freq=*/5,
                    /*eval_iter=*/5, accum_steps);
    if (rank == 0) torch::save(model, "model_ddp.pt");
    return 0;
}
