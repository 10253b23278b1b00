// Small stand-ins for the book project's own headers (tokenizer, GPT model,
// data loaders). Only what the trainers in programs/ need.
#pragma once

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace ch2 {

struct GPTBatch {
    torch::Tensor inputs;
    torch::Tensor targets;
};

class BpeTokenizer {
public:
    BpeTokenizer() = default;
    BpeTokenizer(const std::string& /*encoder_json*/, const std::string& /*vocab_bpe*/) {}

    std::vector<int> encode(const std::string& text,
                            const std::vector<std::string>& /*allowed_special*/ = {}) const {
        std::vector<int> ids;
        ids.reserve(text.size());
        for (unsigned char c : text) ids.push_back(static_cast<int>(c));
        return ids;
    }

    std::string decode(const std::vector<int>& ids) const {
        std::string out;
        for (int id : ids) out.push_back(static_cast<char>(id & 0x7f));
        return out;
    }
};

// Sliding-window loader over one long token stream (listing 2-6).
inline std::vector<GPTBatch> create_dataloader_v1(const std::string& txt, BpeTokenizer& tokenizer,
                                                  int64_t batch_size, int64_t max_length,
                                                  int64_t stride, bool shuffle, bool drop_last) {
    auto ids = tokenizer.encode(txt);
    std::vector<torch::Tensor> xs, ys;
    for (int64_t i = 0; i + max_length < static_cast<int64_t>(ids.size()); i += stride) {
        std::vector<int64_t> x(ids.begin() + i, ids.begin() + i + max_length);
        std::vector<int64_t> y(ids.begin() + i + 1, ids.begin() + i + max_length + 1);
        xs.push_back(torch::tensor(x));
        ys.push_back(torch::tensor(y));
    }
    std::vector<size_t> order(xs.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    if (shuffle) std::shuffle(order.begin(), order.end(), std::mt19937(123));
    std::vector<GPTBatch> batches;
    for (size_t b = 0; b < order.size(); b += batch_size) {
        size_t end = std::min(order.size(), b + static_cast<size_t>(batch_size));
        if (drop_last && end - b < static_cast<size_t>(batch_size)) break;
        std::vector<torch::Tensor> bx, by;
        for (size_t k = b; k < end; ++k) {
            bx.push_back(xs[order[k]]);
            by.push_back(ys[order[k]]);
        }
        batches.push_back({torch::stack(bx), torch::stack(by)});
    }
    return batches;
}

}  // namespace ch2

namespace ch4 {

struct GPTConfig {
    int64_t vocab_size = 50257;
    int64_t context_length = 256;
    int64_t emb_dim = 768;
    int64_t n_heads = 12;
    int64_t n_layers = 12;
    double drop_rate = 0.1;
    bool qkv_bias = false;
};

struct TransformerBlockImpl : torch::nn::Module {
    explicit TransformerBlockImpl(const GPTConfig& cfg) {
        norm1 = register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({cfg.emb_dim})));
        att = register_module("att", torch::nn::MultiheadAttention(
                                         torch::nn::MultiheadAttentionOptions(cfg.emb_dim, cfg.n_heads)
                                             .dropout(cfg.drop_rate)
                                             .bias(cfg.qkv_bias)));
        norm2 = register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({cfg.emb_dim})));
        ff = register_module("ff", torch::nn::Sequential(torch::nn::Linear(cfg.emb_dim, 4 * cfg.emb_dim),
                                                         torch::nn::GELU(),
                                                         torch::nn::Linear(4 * cfg.emb_dim, cfg.emb_dim)));
        drop_shortcut = register_module("drop_shortcut", torch::nn::Dropout(cfg.drop_rate));
    }

    torch::Tensor forward(const torch::Tensor& x) {
        const int64_t t = x.size(1);
        auto mask = torch::triu(torch::ones({t, t}, x.options().dtype(torch::kBool)), 1);
        auto h = norm1->forward(x).transpose(0, 1);
        auto a = std::get<0>(att->forward(h, h, h, {}, true, mask)).transpose(0, 1);
        auto y = x + drop_shortcut->forward(a);
        return y + drop_shortcut->forward(ff->forward(norm2->forward(y)));
    }

    torch::nn::LayerNorm norm1{nullptr}, norm2{nullptr};
    torch::nn::MultiheadAttention att{nullptr};
    torch::nn::Sequential ff{nullptr};
    torch::nn::Dropout drop_shortcut{nullptr};
};
TORCH_MODULE(TransformerBlock);

struct GPTModelImpl : torch::nn::Module {
    explicit GPTModelImpl(const GPTConfig& cfg) {
        tok_emb = register_module("tok_emb", torch::nn::Embedding(cfg.vocab_size, cfg.emb_dim));
        pos_emb = register_module("pos_emb", torch::nn::Embedding(cfg.context_length, cfg.emb_dim));
        drop_emb = register_module("drop_emb", torch::nn::Dropout(cfg.drop_rate));
        trf_blocks = register_module("trf_blocks", torch::nn::Sequential());
        for (int64_t i = 0; i < cfg.n_layers; ++i) trf_blocks->push_back(TransformerBlock(cfg));
        final_norm = register_module("final_norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({cfg.emb_dim})));
        out_head = register_module("out_head",
                                   torch::nn::Linear(torch::nn::LinearOptions(cfg.emb_dim, cfg.vocab_size).bias(false)));
    }

    torch::Tensor forward(const torch::Tensor& in_idx) {
        const int64_t seq_len = in_idx.size(1);
        auto pos = torch::arange(seq_len, torch::TensorOptions().dtype(torch::kLong).device(in_idx.device()));
        auto x = drop_emb->forward(tok_emb->forward(in_idx) + pos_emb->forward(pos));
        x = trf_blocks->forward(x);
        return out_head->forward(final_norm->forward(x));
    }

    torch::nn::Embedding tok_emb{nullptr}, pos_emb{nullptr};
    torch::nn::Dropout drop_emb{nullptr};
    torch::nn::Sequential trf_blocks{nullptr};
    torch::nn::LayerNorm final_norm{nullptr};
    torch::nn::Linear out_head{nullptr};
};
TORCH_MODULE(GPTModel);

inline torch::Tensor generate_text_simple(GPTModel& model, torch::Tensor idx, int64_t max_new_tokens,
                                          int64_t context_size) {
    for (int64_t i = 0; i < max_new_tokens; ++i) {
        auto idx_cond = idx.index({torch::indexing::Slice(),
                                   torch::indexing::Slice(-context_size, torch::indexing::None)});
        auto logits = model->forward(idx_cond).select(1, -1);
        auto next = torch::argmax(logits, -1, /*keepdim=*/true);
        idx = torch::cat({idx, next}, 1);
    }
    return idx;
}

}  // namespace ch4

namespace ch7 {

struct InstructionEntry {
    std::string instruction;
    std::string input;
    std::string output;
};

struct InstructionBatch {
    torch::Tensor inputs;
    torch::Tensor targets;
};

inline std::string format_input(const InstructionEntry& entry) {
    std::string text =
        "Below is an instruction that describes a task. Write a response that appropriately completes the request."
        "\n\n### Instruction:\n" + entry.instruction;
    if (!entry.input.empty()) text += "\n\n### Input:\n" + entry.input;
    return text;
}

class InstructionDataset {
public:
    InstructionDataset(const std::vector<InstructionEntry>& data, ch2::BpeTokenizer& tokenizer) {
        for (const auto& e : data) {
            encoded_.push_back(tokenizer.encode(format_input(e) + "\n\n### Response:\n" + e.output));
        }
    }
    size_t size() const { return encoded_.size(); }
    const std::vector<int>& get(size_t i) const { return encoded_[i]; }

private:
    std::vector<std::vector<int>> encoded_;
};

// Pads every batch to its longest entry; targets are shifted by one and the
// padding after the first end-of-text token is replaced by ignore_index.
class InstructionLoader {
public:
    InstructionLoader(const InstructionDataset& ds, int64_t batch_size, bool shuffle, bool drop_last,
                      int64_t pad_token_id, int64_t allowed_max_length, const torch::Device& device,
                      uint32_t seed, int64_t ignore_index = -100) {
        std::vector<size_t> order(ds.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        if (shuffle) std::shuffle(order.begin(), order.end(), std::mt19937(seed));
        for (size_t b = 0; b < order.size(); b += batch_size) {
            size_t end = std::min(order.size(), b + static_cast<size_t>(batch_size));
            if (drop_last && end - b < static_cast<size_t>(batch_size)) break;
            size_t longest = 0;
            for (size_t k = b; k < end; ++k) longest = std::max(longest, ds.get(order[k]).size() + 1);
            longest = std::min<size_t>(longest, allowed_max_length + 1);
            auto in = torch::full({static_cast<int64_t>(end - b), static_cast<int64_t>(longest - 1)}, pad_token_id,
                                  torch::kLong);
            auto tg = torch::full_like(in, ignore_index);
            for (size_t k = b; k < end; ++k) {
                const auto& ids = ds.get(order[k]);
                for (size_t t = 0; t + 1 < longest && t < ids.size(); ++t) {
                    in[k - b][t] = ids[t];
                    tg[k - b][t] = t + 1 < ids.size() ? ids[t + 1] : pad_token_id;
                }
            }
            batches_.push_back({in.to(device), tg.to(device)});
        }
    }
    const std::vector<InstructionBatch>& batches() const { return batches_; }
    size_t size() const { return batches_.size(); }

private:
    std::vector<InstructionBatch> batches_;
};

}  // namespace ch7
