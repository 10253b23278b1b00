// libtorch-lm with a small callback-based epoch runner: the runner walks the
// Multi30k loader, calls `on_batch` for every batch and `on_update` with the
// number of batches gathered whenever an update is due (every
// `accumulation_steps` batches, and once more for a shorter tail).
#include <torch/torch.h>

#include <functional>
#include <iostream>
#include <string>

#include "multi30k_support.h"

using namespace torch::indexing;

struct RunnerStats {
    double loss = 0.0;
    int64_t batches = 0;
    int64_t updates = 0;
};

template <typename Loader>
RunnerStats run_epoch(Loader& loader, int64_t accumulation_steps,
                      const std::function<double(const torch::data::Example<>&)>& on_batch,
                      const std::function<void(int64_t)>& on_update) {
    RunnerStats stats;
    int64_t pending = 0;
    for (auto& batch : loader) {
        stats.loss += on_batch(batch);
        stats.batches++;
        if (++pending == accumulation_steps) {
            on_update(pending);
            pending = 0;
            stats.updates++;
        }
    }
    if (pending > 0) {
        on_update(pending);
        stats.updates++;
    }
    return stats;
}

int main(int argc, char** argv) {
    torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
    const int64_t accumulation_steps = argc > 1 ? std::stoll(argv[1]) : 4;

    torch::manual_seed(0);
    Seq2SeqTransformer model(3, 3, 512, 8, 19215, 10838, 512, 0.1);
    for (auto p : model->parameters()) {
        if (p.dim() > 1) torch::nn::init::xavier_uniform_(p);
    }
    model->to(device);

    auto loss_fn = torch::nn::CrossEntropyLoss(torch::nn::CrossEntropyLossOptions().ignore_index(PAD_IDX));
    torch::optim::Adam optimizer(model->parameters(),
                                 torch::optim::AdamOptions().lr(0.0001).betas(std::make_tuple(0.9, 0.98)).eps(1e-9));
    torch::optim::StepLR scheduler(optimizer, /*step_size=*/2000, /*gamma=*/0.5);

    // forward + backward of one batch; gradients are summed over the window
    auto on_batch = [&](const torch::data::Example<>& batch) -> double {
        torch::Tensor src = batch.data.to(device).transpose(0, 1);
        torch::Tensor tgt = batch.target.to(device).transpose(0, 1);
        torch::Tensor tgt_input = tgt.index({Slice(None, -1, None)});
        auto mask = create_mask(src, tgt_input, device);
        torch::Tensor logits = model->forward(src, tgt_input, std::get<0>(mask), std::get<1>(mask), std::get<2>(mask),
                                              std::get<3>(mask), std::get<2>(mask));
        torch::Tensor tgt_out = tgt.index({Slice(1, None, None)});
        auto loss = loss_fn(logits.reshape({-1, logits.size(logits.dim() - 1)}), tgt_out.reshape({-1}));
        loss.backward();
        return loss.item<double>();
    };

    // average the summed gradients over the batches of the window, then update
    auto on_update = [&](int64_t gathered) {
        for (auto& p : model->parameters()) {
            if (p.grad().defined()) p.grad().div_(static_cast<double>(gathered));
        }
        torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
        optimizer.step();
        scheduler.step();
        optimizer.zero_grad();
    };

    for (int epoch = 1; epoch <= 36; epoch++) {
        model->train();
        auto data_loader = torch::data::make_data_loader(MULTI30K("./data/")->map(torch::data::transforms::Stack<>()),
                                                         torch::data::DataLoaderOptions().batch_size(32));
        optimizer.zero_grad();
        auto stats = run_epoch(*data_loader, accumulation_steps, on_batch, on_update);
        std::cout << "Epoch: " << epoch << ", Train loss: " << stats.loss / stats.batches << ", updates: " << stats.updates
                  << std::endl;
        torch::save(model, "./model/net_" + std::to_string(epoch) + ".pt");
    }
    return 0;
}
