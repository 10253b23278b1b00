// libtorch-lm: German -> English translation with a Seq2Seq transformer on
// Multi30k (port of the PyTorch "language translation" tutorial).
// train_epoch groups `accumulation_steps` batches of 32 sentence pairs per
// Adam update to reach the tutorial's batch of 128 on a small GPU.
#include <torch/torch.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "multi30k_support.h"

using namespace torch::indexing;

torch::nn::CrossEntropyLoss create_loss() {
    return torch::nn::CrossEntropyLoss(torch::nn::CrossEntropyLossOptions().ignore_index(PAD_IDX));
}

// The tutorial's Adam settings; the rate is shared out over the accumulated batches.
torch::optim::Adam create_optimizer(const std::vector<at::Tensor>& transformer_parameters, int64_t accumulation_steps) {
    return torch::optim::Adam(transformer_parameters, torch::optim::AdamOptions()
                                                          .lr(0.0001 / accumulation_steps)
                                                          .betas(std::make_tuple(0.9, 0.98))
                                                          .eps(1e-9));
}

double train_epoch(Seq2SeqTransformer& model, torch::optim::Adam& optimizer, torch::nn::CrossEntropyLoss& loss_fn,
                   const torch::Device& device, int64_t accumulation_steps) {
    model->train();
    double losses = 0.0;
    int batches = 0;
    auto data_loader = torch::data::make_data_loader(MULTI30K("./data/")->map(torch::data::transforms::Stack<>()),
                                                     /*batch_size=*/32);

    optimizer.zero_grad();
    for (auto& batch : *data_loader) {
        torch::Tensor src = batch.data.to(device).transpose(0, 1);
        torch::Tensor tgt = batch.target.to(device).transpose(0, 1);
        torch::Tensor tgt_input = tgt.index({Slice(None, -1, None)});

        auto mask = create_mask(src, tgt_input, device);
        torch::Tensor src_mask = std::get<0>(mask);
        torch::Tensor tgt_mask = std::get<1>(mask);
        torch::Tensor src_padding_mask = std::get<2>(mask);
        torch::Tensor tgt_padding_mask = std::get<3>(mask);
        torch::Tensor logits =
            model->forward(src, tgt_input, src_mask, tgt_mask, src_padding_mask, tgt_padding_mask, src_padding_mask);

        torch::Tensor tgt_out = tgt.index({Slice(1, None, None)});
        auto loss = loss_fn(logits.reshape({-1, logits.size(logits.dim() - 1)}), tgt_out.reshape({-1}));
        (loss / accumulation_steps).backward();

        losses += loss.item<double>();
        batches++;
        if (batches % accumulation_steps == 0) {
            optimizer.step();
            optimizer.zero_grad();
        }
    }
    if (batches % accumulation_steps != 0) {
        optimizer.step();
        optimizer.zero_grad();
    }
    return losses / batches;
}

double evaluate(Seq2SeqTransformer& model, torch::nn::CrossEntropyLoss& loss_fn, const torch::Device& device) {
    model->eval();
    torch::NoGradGuard no_grad;
    double losses = 0.0;
    int batches = 0;
    auto data_loader = torch::data::make_data_loader(
        MULTI30K("./data/", MULTI30KImpl::Mode::kTest)->map(torch::data::transforms::Stack<>()), /*batch_size=*/64);
    for (auto& batch : *data_loader) {
        torch::Tensor src = batch.data.to(device).transpose(0, 1);
        torch::Tensor tgt = batch.target.to(device).transpose(0, 1);
        torch::Tensor tgt_input = tgt.index({Slice(None, -1, None)});
        auto mask = create_mask(src, tgt_input, device);
        torch::Tensor logits = model->forward(src, tgt_input, std::get<0>(mask), std::get<1>(mask), std::get<2>(mask),
                                              std::get<3>(mask), std::get<2>(mask));
        torch::Tensor tgt_out = tgt.index({Slice(1, None, None)});
        losses += loss_fn(logits.reshape({-1, logits.size(logits.dim() - 1)}), tgt_out.reshape({-1})).item<double>();
        batches++;
    }
    return losses / batches;
}

int main(int argc, char** argv) {
    torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
    const int64_t accumulation_steps = argc > 1 ? std::stoll(argv[1]) : 4;

    torch::manual_seed(0);
    Seq2SeqTransformer transformer(3, 3, 512, 8, 19215, 10838, 512, 0.1);
    for (auto p : transformer->parameters()) {
        if (p.dim() > 1) torch::nn::init::xavier_uniform_(p);
    }
    transformer->to(device);

    torch::nn::CrossEntropyLoss loss_fn = create_loss();
    auto parameters = transformer->parameters();
    torch::optim::Adam optimizer = create_optimizer(parameters, accumulation_steps);

    const int NUM_EPOCHS = 36;
    for (auto epoch = 1; epoch <= NUM_EPOCHS; epoch++) {
        auto t1 = std::chrono::high_resolution_clock::now();
        double train_loss = train_epoch(transformer, optimizer, loss_fn, device, accumulation_steps);
        auto t2 = std::chrono::high_resolution_clock::now();
        auto ms_int = std::chrono::duration_cast<std::chrono::milliseconds>(t2 - t1);
        double val_loss = evaluate(transformer, loss_fn, device);
        printf("Epoch: %i, Train loss: %f, Val loss: %f Epoch time: %li\n", epoch, train_loss, val_loss,
               static_cast<long>(ms_int.count()));
        std::stringstream stream;
        stream << "./model/net_" << epoch << ".pt";
        torch::save(transformer, stream.str());
    }
    return 0;
}
