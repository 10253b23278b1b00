// Stand-ins for libtorch-lm's headers: the Multi30k German-English dataset,
// the special token ids, mask helpers and the Seq2SeqTransformer module.
#pragma once

#include <torch/torch.h>

#include <cmath>
#include <limits>
#include <string>
#include <tuple>

const int64_t UNK_IDX = 0;
const int64_t PAD_IDX = 1;
const int64_t BOS_IDX = 2;
const int64_t EOS_IDX = 3;

// Examples are (source ids [32], target ids [32]), padded with PAD_IDX.
class MULTI30KImpl : public torch::data::datasets::Dataset<MULTI30KImpl> {
public:
    enum class Mode { kTrain, kTest };
    explicit MULTI30KImpl(const std::string& /*root*/, Mode mode = Mode::kTrain) : mode(mode) {
        const int64_t n = mode == Mode::kTrain ? 29000 : 1000;
        sources_ = torch::randint(4, 19215, {n, 32}, torch::kLong);
        targets_ = torch::randint(4, 10838, {n, 32}, torch::kLong);
    }
    torch::data::Example<> get(size_t index) override { return {sources_[index], targets_[index]}; }
    c10::optional<size_t> size() const override { return sources_.size(0); }
    bool is_train() const noexcept { return mode == Mode::kTrain; }

private:
    torch::Tensor sources_, targets_;
    Mode mode;
};
TORCH_MODULE(MULTI30K);

inline torch::Tensor generate_square_subsequent_mask(int64_t sz, const torch::Device& device) {
    torch::Tensor mask = (at::triu(at::ones({sz, sz}, device)) == 1).transpose(0, 1);
    return mask.to(torch::kFloat32)
        .masked_fill(mask == 0, -std::numeric_limits<float>::infinity())
        .masked_fill(mask == 1, 0.0f);
}

inline std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor> create_mask(const torch::Tensor& src,
                                                                                          const torch::Tensor& tgt,
                                                                                          const torch::Device& device) {
    const int64_t src_seq_len = src.size(0);
    const int64_t tgt_seq_len = tgt.size(0);
    torch::Tensor tgt_mask = generate_square_subsequent_mask(tgt_seq_len, device);
    torch::Tensor src_mask = torch::zeros({src_seq_len, src_seq_len}, device).to(at::kBool);
    torch::Tensor src_padding_mask = (src == PAD_IDX).transpose(0, 1);
    torch::Tensor tgt_padding_mask = (tgt == PAD_IDX).transpose(0, 1);
    return std::make_tuple(src_mask, tgt_mask, src_padding_mask, tgt_padding_mask);
}

class Seq2SeqTransformerImpl : public torch::nn::Module {
public:
    Seq2SeqTransformerImpl(int64_t num_encoder_layers, int64_t num_decoder_layers, int64_t emb_size, int64_t nhead,
                           int64_t src_vocab_size, int64_t tgt_vocab_size, int64_t dim_feedforward = 512,
                           double dropout = 0.1)
        : emb_scale(std::sqrt(static_cast<double>(emb_size))) {
        transformer = register_module("transformer", torch::nn::Transformer(torch::nn::TransformerOptions()
                                                                                .d_model(emb_size)
                                                                                .nhead(nhead)
                                                                                .num_encoder_layers(num_encoder_layers)
                                                                                .num_decoder_layers(num_decoder_layers)
                                                                                .dim_feedforward(dim_feedforward)
                                                                                .dropout(dropout)));
        generator = register_module("generator", torch::nn::Linear(emb_size, tgt_vocab_size));
        src_tok_emb = register_module("src_tok_emb", torch::nn::Embedding(src_vocab_size, emb_size));
        tgt_tok_emb = register_module("tgt_tok_emb", torch::nn::Embedding(tgt_vocab_size, emb_size));
    }
    torch::Tensor forward(torch::Tensor src, torch::Tensor trg, torch::Tensor src_mask, torch::Tensor tgt_mask,
                          torch::Tensor src_padding_mask, torch::Tensor tgt_padding_mask,
                          torch::Tensor memory_key_padding_mask) {
        auto src_emb = src_tok_emb(src) * emb_scale;
        auto tgt_emb = tgt_tok_emb(trg) * emb_scale;
        const torch::Tensor memory_mask;
        auto outs = transformer->forward(src_emb, tgt_emb, src_mask, tgt_mask, memory_mask, src_padding_mask,
                                         tgt_padding_mask, memory_key_padding_mask);
        return generator(outs);
    }
    torch::nn::Transformer transformer = nullptr;
    torch::nn::Linear generator = nullptr;
    torch::nn::Embedding src_tok_emb = nullptr, tgt_tok_emb = nullptr;
    double emb_scale;
};
TORCH_MODULE(Seq2SeqTransformer);
