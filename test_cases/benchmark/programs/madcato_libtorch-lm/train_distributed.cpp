// libtorch-lm, data-parallel variant: every process trains the same
// Seq2SeqTransformer on its DistributedRandomSampler shard of Multi30k and a
// small Gloo communicator averages the gradients before each Adam update.
// Each rank accumulates `accumulation_steps` batches per update.
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "multi30k_support.h"

using namespace torch::indexing;

class GradientSynchronizer {
public:
    GradientSynchronizer(int rank, int world_size, const std::string& store_path) : world_size_(world_size) {
        auto store = c10::make_intrusive<c10d::FileStore>(store_path, world_size);
        auto options = c10d::ProcessGroupGloo::Options::create();
        options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
        pg_ = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size, options);
    }

    // Mean of every gradient over the ranks.
    void allreduce_gradients(const std::vector<torch::Tensor>& params) {
        std::vector<torch::Tensor> grads;
        for (const auto& p : params) {
            if (p.grad().defined()) grads.push_back(p.grad());
        }
        pg_->allreduce_coalesced(grads)->wait();
        for (auto& g : grads) g.div_(world_size_);
    }

    void broadcast_parameters(const std::vector<torch::Tensor>& params) {
        torch::NoGradGuard no_grad;
        for (const auto& p : params) {
            std::vector<torch::Tensor> t{p.data()};
            pg_->broadcast(t)->wait();
        }
    }

    int world_size() const { return world_size_; }

private:
    int world_size_;
    c10::intrusive_ptr<c10d::ProcessGroupGloo> pg_;
};

double train_epoch(Seq2SeqTransformer& model, torch::optim::Adam& optimizer, torch::nn::CrossEntropyLoss& loss_fn,
                   const torch::Device& device, GradientSynchronizer& sync, int rank, int64_t accumulation_steps,
                   size_t epoch) {
    model->train();
    double losses = 0.0;
    int64_t batches = 0;
    const int64_t batch_size = 32;

    auto dataset = MULTI30K("./data/")->map(torch::data::transforms::Stack<>());
    const size_t dataset_size = dataset.size().value();
    torch::data::samplers::DistributedRandomSampler sampler(dataset_size, sync.world_size(), rank, /*allow_duplicates=*/true);
    sampler.set_epoch(epoch);
    const int64_t num_batches =
        (static_cast<int64_t>((dataset_size + sync.world_size() - 1) / sync.world_size()) + batch_size - 1) / batch_size;
    auto data_loader = torch::data::make_data_loader(std::move(dataset), std::move(sampler),
                                                     torch::data::DataLoaderOptions().batch_size(batch_size));

    auto params = model->parameters();
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
        (loss / accumulation_steps).backward();
        losses += loss.item<double>();

        if (batches % accumulation_steps == accumulation_steps - 1 || batches + 1 == num_batches) {
            torch::nn::utils::clip_grad_norm_(params, 1.0);
            sync.allreduce_gradients(params);
            optimizer.step();
            optimizer.zero_grad();
        }
        batches++;
    }
    return losses / batches;
}

int main(int argc, char** argv) {
    const int rank = std::getenv("RANK") ? std::atoi(std::getenv("RANK")) : 0;
    const int world_size = std::getenv("WORLD_SIZE") ? std::atoi(std::getenv("WORLD_SIZE")) : 1;
    const int64_t accumulation_steps = argc > 1 ? std::stoll(argv[1]) : 2;
    torch::Device device = torch::kCPU;

    GradientSynchronizer sync(rank, world_size, "/tmp/libtorch_lm_store");
    torch::manual_seed(0);
    Seq2SeqTransformer transformer(3, 3, 512, 8, 19215, 10838, 512, 0.1);
    for (auto p : transformer->parameters()) {
        if (p.dim() > 1) torch::nn::init::xavier_uniform_(p);
    }
    sync.broadcast_parameters(transformer->parameters());

    auto loss_fn = torch::nn::CrossEntropyLoss(torch::nn::CrossEntropyLossOptions().ignore_index(PAD_IDX));
    torch::optim::Adam optimizer(transformer->parameters(),
                                 torch::optim::AdamOptions().lr(0.0001).betas(std::make_tuple(0.9, 0.98)).eps(1e-9));

    for (size_t epoch = 1; epoch <= 36; epoch++) {
        const double train_loss =
            train_epoch(transformer, optimizer, loss_fn, device, sync, rank, accumulation_steps, epoch);
        if (rank == 0) {
            std::cout << "Epoch: " << epoch << ", Train loss: " << train_loss << std::endl;
            torch::save(transformer, "./model/net_" + std::to_string(epoch) + ".pt");
        }
    }
    return 0;
}
