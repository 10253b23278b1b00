// Stand-ins for the Dive-into-Deep-Learning port's utility headers
// (utils/ch_8_9_util.h, TempHelpFunctions.hpp): vocabularies, data
// iterators, the NMT loader, sequence masks and the masked softmax loss.
#pragma once

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <list>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

struct Vocab {
    std::vector<std::string> idx_to_token{"<unk>", "<pad>", "<bos>", "<eos>"};
    std::map<std::string, int64_t> token_to_idx{{"<unk>", 0}, {"<pad>", 1}, {"<bos>", 2}, {"<eos>", 3}};

    int64_t operator[](const std::string& token) const {
        auto it = token_to_idx.find(token);
        return it == token_to_idx.end() ? 0 : it->second;
    }
    int64_t length() const { return static_cast<int64_t>(idx_to_token.size()); }
};

class precise_timer {
public:
    precise_timer() : start_(std::chrono::steady_clock::now()) {}
    template <typename T, typename Unit>
    T stop() const {
        return static_cast<T>(std::chrono::duration_cast<Unit>(std::chrono::steady_clock::now() - start_).count());
    }

private:
    std::chrono::steady_clock::time_point start_;
};

// Shuffled (or ordered) index batches over `num_examples` rows.
inline std::list<torch::Tensor> data_index_iter(int64_t num_examples, int64_t batch_size, bool shuffle = true) {
    std::vector<int64_t> indices(num_examples);
    for (int64_t i = 0; i < num_examples; ++i) indices[i] = i;
    if (shuffle) std::shuffle(indices.begin(), indices.end(), std::mt19937(std::random_device{}()));
    std::list<torch::Tensor> batches;
    for (int64_t i = 0; i < num_examples; i += batch_size) {
        const int64_t end = std::min(i + batch_size, num_examples);
        batches.push_back(torch::tensor(std::vector<int64_t>(indices.begin() + i, indices.begin() + end)));
    }
    return batches;
}

// Character-level "time machine" corpus cut into (X, Y) minibatches.
inline std::pair<std::vector<std::pair<torch::Tensor, torch::Tensor>>, Vocab> load_data_time_machine(
    int64_t batch_size, int64_t num_steps, int64_t max_tokens = 10000) {
    Vocab vocab;
    for (char c = 'a'; c <= 'z'; ++c) {
        vocab.token_to_idx[std::string(1, c)] = vocab.length();
        vocab.idx_to_token.push_back(std::string(1, c));
    }
    auto corpus = torch::randint(4, vocab.length(), {max_tokens}, torch::kLong);
    std::vector<std::pair<torch::Tensor, torch::Tensor>> iter;
    const int64_t num_tokens = ((max_tokens - 1) / batch_size) * batch_size;
    auto Xs = corpus.narrow(0, 0, num_tokens).view({batch_size, -1});
    auto Ys = corpus.narrow(0, 1, num_tokens).view({batch_size, -1});
    for (int64_t i = 0; i + num_steps <= Xs.size(1); i += num_steps) {
        iter.emplace_back(Xs.narrow(1, i, num_steps), Ys.narrow(1, i, num_steps));
    }
    return {iter, vocab};
}

// English-French pairs: (src, src_valid_len, tgt, tgt_valid_len, src_vocab, tgt_vocab).
inline std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor, Vocab, Vocab> load_data_nmt(
    const std::string& /*filename*/, int64_t num_steps, int64_t num_examples = 600) {
    Vocab src_vocab, tgt_vocab;
    for (int i = 0; i < 200; ++i) {
        src_vocab.idx_to_token.push_back("s" + std::to_string(i));
        src_vocab.token_to_idx["s" + std::to_string(i)] = src_vocab.length() - 1;
        tgt_vocab.idx_to_token.push_back("t" + std::to_string(i));
        tgt_vocab.token_to_idx["t" + std::to_string(i)] = tgt_vocab.length() - 1;
    }
    auto src = torch::randint(4, src_vocab.length(), {num_examples, num_steps}, torch::kLong);
    auto tgt = torch::randint(4, tgt_vocab.length(), {num_examples, num_steps}, torch::kLong);
    auto src_len = torch::randint(2, num_steps + 1, {num_examples}, torch::kLong);
    auto tgt_len = torch::randint(2, num_steps + 1, {num_examples}, torch::kLong);
    return {src, src_len, tgt, tgt_len, src_vocab, tgt_vocab};
}

// Zero out the entries past each row's valid length.
inline torch::Tensor sequence_mask(torch::Tensor X, torch::Tensor valid_len, float value = 0) {
    const int64_t maxlen = X.size(1);
    auto mask = torch::arange(maxlen, torch::TensorOptions().dtype(torch::kFloat32).device(X.device()))
                    .unsqueeze(0) < valid_len.unsqueeze(1);
    return X.masked_fill(~mask, value);
}

// Softmax cross entropy per sequence, padded positions weighted 0.
// pred [b, steps, vocab], label [b, steps], valid_len [b] -> [b]
struct MaskedSoftmaxCELoss {
    torch::Tensor forward(const torch::Tensor& pred, const torch::Tensor& label, const torch::Tensor& valid_len) {
        auto weights = sequence_mask(torch::ones_like(label, torch::kFloat32), valid_len);
        auto unweighted = torch::nn::functional::cross_entropy(
            pred.permute({0, 2, 1}), label,
            torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kNone));
        return (unweighted * weights).mean(1);
    }
};

inline void xavier_init_weights(torch::nn::Module& m) {
    torch::NoGradGuard ng;
    for (auto& p : m.named_parameters(false)) {
        if (p.key().find("weight") != std::string::npos && p.value().dim() > 1) torch::nn::init::xavier_uniform_(p.value());
    }
}
