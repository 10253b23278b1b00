// libtorch-lm trained with the "Attention Is All You Need" schedule:
// lr = d_model^-0.5 * min(step^-0.5, step * warmup^-1.5), stepped once per
// Adam update. Updates are made every `accumulation_steps` batches of 32
// sentence pairs.
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include "multi30k_support.h"

using namespace torch::indexing;

class NoamScheduler : public torch::optim::LRScheduler {
public:
    NoamScheduler(torch::optim::Optimizer& optimizer, int64_t d_model, int64_t warmup_steps, double factor = 1.0)
        : torch::optim::LRScheduler(optimizer), d_model_(d_model), warmup_steps_(warmup_steps), factor_(factor) {}

private:
    std::vector<double> get_lrs() override {
        const double step = std::max<double>(1.0, step_count_);
        const double lr = factor_ * std::pow(static_cast<double>(d_model_), -0.5) *
                          std::min(std::pow(step, -0.5), step * std::pow(static_cast<double>(warmup_steps_), -1.5));
        return std::vector<double>(get_current_lrs().size(), lr);
    }
    int64_t d_model_;
    int64_t warmup_steps_;
    double factor_;
};

struct EpochStats {
    double loss = 0.0;
    int64_t batches = 0;
    int64_t updates = 0;
};

EpochStats train_epoch(Seq2SeqTransformer& model, torch::optim::Adam& optimizer, NoamScheduler& scheduler,
                       torch::nn::CrossEntropyLoss& loss_fn, const torch::Device& device, int64_t accumulation_steps) {
    model->train();
    EpochStats stats;
    auto data_loader = torch::data::make_data_loader(MULTI30K("./data/")->map(torch::data::transforms::Stack<>()),
                                                     torch::data::DataLoaderOptions().batch_size(32));

    int64_t micro = 0;
    optimizer.zero_grad();
    for (auto& batch : *data_loader) {
        torch::Tensor src = batch.data.to(device).transpose(0, 1);
        torch::Tensor tgt = batch.target.to(device).transpose(0, 1);
        torch::Tensor tgt_input = tgt.index({Slice(None, -1, None)});
        auto mask = create_mask(src, tgt_input, device);
        torch::Tensor logits = model->forward(src, tgt_input, std::get<0>(mask), std::get<1>(mask), std::get<2>(mask),
                                              std::get<3>(mask), std::get<2>(mask));
        torch::Tensor tgt_out = tgt.index({Slice(1, None, None)});
        auto loss = loss_fn(logits.reshape({-1, logits.size(logits.dim() - 1)}), tgt_out.reshape({-1}));
        (loss / static_cast<double>(accumulation_steps)).backward();
        stats.loss += loss.item<double>();
        stats.batches++;

        if (++micro == accumulation_steps) {
            torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
            optimizer.step();
            scheduler.step();
            optimizer.zero_grad();
            micro = 0;
            stats.updates++;
        }
    }
    return stats;
}

int main(int argc, char** argv) {
    torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
    const int64_t accumulation_steps = argc > 1 ? std::stoll(argv[1]) : 4;
    const int64_t emb_size = 512;

    torch::manual_seed(0);
    Seq2SeqTransformer transformer(3, 3, emb_size, 8, 19215, 10838, 512, 0.1);
    for (auto p : transformer->parameters()) {
        if (p.dim() > 1) torch::nn::init::xavier_uniform_(p);
    }
    transformer->to(device);

    auto loss_fn = torch::nn::CrossEntropyLoss(torch::nn::CrossEntropyLossOptions().ignore_index(PAD_IDX));
    torch::optim::Adam optimizer(transformer->parameters(),
                                 torch::optim::AdamOptions(1.0).betas(std::make_tuple(0.9, 0.98)).eps(1e-9));
    NoamScheduler scheduler(optimizer, emb_size, /*warmup_steps=*/4000);

    for (int epoch = 1; epoch <= 36; epoch++) {
        auto stats = train_epoch(transformer, optimizer, scheduler, loss_fn, device, accumulation_steps);
        const double lr = static_cast<torch::optim::AdamOptions&>(optimizer.param_groups()[0].options()).lr();
        std::cout << "Epoch: " << epoch << ", Train loss: " << stats.loss / stats.batches << ", updates "
                  << stats.updates << ", lr " << lr << std::endl;
        torch::save(transformer, "./model/net_" + std::to_string(epoch) + ".pt");
    }
    return 0;
}
