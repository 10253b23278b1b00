// 9.7 Sequence to sequence learning: GRU encoder-decoder for English-French
// translation with a masked softmax cross-entropy loss. Updates are made over
// windows of `accum` minibatches and normalised by the number of valid target
// tokens in the whole window.
#include <torch/torch.h>

#include <iomanip>
#include <iostream>
#include <list>
#include <vector>

#include "d2l_support.h"

using torch::indexing::None;
using torch::indexing::Slice;

struct Seq2SeqEncoderImpl : public torch::nn::Module {
    torch::nn::Embedding embedding{nullptr};
    torch::nn::GRU rnn{nullptr};

    Seq2SeqEncoderImpl(int64_t vocab_size, int64_t embed_size, int64_t num_hiddens, int64_t num_layers,
                       float dropout = 0) {
        embedding = register_module("embedding", torch::nn::Embedding(vocab_size, embed_size));
        rnn = register_module("rnn", torch::nn::GRU(torch::nn::GRUOptions(embed_size, num_hiddens)
                                                         .num_layers(num_layers)
                                                         .dropout(dropout)));
    }
    // X [batch, steps] -> (output [steps, batch, hiddens], state [layers, batch, hiddens])
    std::tuple<torch::Tensor, torch::Tensor> forward(const torch::Tensor& X) {
        auto emb = embedding->forward(X).permute({1, 0, 2});
        return rnn->forward(emb);
    }
};
TORCH_MODULE(Seq2SeqEncoder);

struct Seq2SeqDecoderImpl : public torch::nn::Module {
    torch::nn::Embedding embedding{nullptr};
    torch::nn::GRU rnn{nullptr};
    torch::nn::Linear dense{nullptr};

    Seq2SeqDecoderImpl(int64_t vocab_size, int64_t embed_size, int64_t num_hiddens, int64_t num_layers,
                       float dropout = 0) {
        embedding = register_module("Dembedding", torch::nn::Embedding(vocab_size, embed_size));
        rnn = register_module("Drnn", torch::nn::GRU(torch::nn::GRUOptions(embed_size + num_hiddens, num_hiddens)
                                                          .num_layers(num_layers)
                                                          .dropout(dropout)));
        dense = register_module("Ddense", torch::nn::Linear(num_hiddens, vocab_size));
    }
    torch::Tensor init_state(const std::tuple<torch::Tensor, torch::Tensor>& enc_outputs) {
        return std::get<1>(enc_outputs);
    }
    std::tuple<torch::Tensor, torch::Tensor> forward(torch::Tensor X, torch::Tensor state) {
        X = embedding->forward(X).permute({1, 0, 2});
        auto context = state[-1].repeat({X.size(0), 1, 1});
        torch::Tensor output;
        std::tie(output, state) = rnn->forward(torch::cat({X, context}, 2), state);
        return {dense->forward(output).permute({1, 0, 2}), state};
    }
};
TORCH_MODULE(Seq2SeqDecoder);

struct EncoderDecoderImpl : public torch::nn::Module {
    Seq2SeqEncoder encoder{nullptr};
    Seq2SeqDecoder decoder{nullptr};
    EncoderDecoderImpl(Seq2SeqEncoder enc, Seq2SeqDecoder dec) {
        encoder = register_module("encoder", enc);
        decoder = register_module("decoder", dec);
    }
    std::tuple<torch::Tensor, torch::Tensor> forward(const torch::Tensor& enc_X, const torch::Tensor& dec_X) {
        auto state = decoder->init_state(encoder->forward(enc_X));
        return decoder->forward(dec_X, state);
    }
};
TORCH_MODULE(EncoderDecoder);

int main() {
    torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);

    int embed_size = 32, num_hiddens = 32, num_layers = 2;
    float dropout = 0.1, lr = 0.005;
    int batch_size = 64, num_steps = 10;
    int64_t num_epochs = 300;
    const size_t accum = 2;

    Vocab src_vocab, tgt_vocab;
    torch::Tensor src_array, src_valid_len, tgt_array, tgt_valid_len;
    std::tie(src_array, src_valid_len, tgt_array, tgt_valid_len, src_vocab, tgt_vocab) =
        load_data_nmt("./data/fra-eng/fra.txt", num_steps, 600);

    auto encoder = Seq2SeqEncoder(src_vocab.length(), embed_size, num_hiddens, num_layers, dropout);
    auto decoder = Seq2SeqDecoder(tgt_vocab.length(), embed_size, num_hiddens, num_layers, dropout);
    auto net = EncoderDecoder(encoder, decoder);
    net->to(device);
    net->apply(xavier_init_weights);

    torch::optim::Adam optimizer(net->parameters(), torch::optim::AdamOptions(lr).betas({0.5, 0.999}));
    auto loss_fn = MaskedSoftmaxCELoss();
    net->train(true);

    src_array = src_array.to(device);
    src_valid_len = src_valid_len.to(device);
    tgt_array = tgt_array.to(device);
    tgt_valid_len = tgt_valid_len.to(device);

    // One update over the minibatches of `window`: each backward() gets the
    // token-summed loss of its minibatch divided by the window's token count.
    auto train_window = [&](const std::vector<torch::Tensor>& window) -> std::pair<double, int64_t> {
        int64_t window_tokens = 0;
        for (const auto& batch_idx : window) window_tokens += tgt_valid_len.index_select(0, batch_idx).sum().item<int64_t>();

        optimizer.zero_grad();
        double window_loss = 0.0;
        for (const auto& batch_idx : window) {
            auto X = src_array.index_select(0, batch_idx);
            auto Y = tgt_array.index_select(0, batch_idx);
            auto Y_valid_len = tgt_valid_len.index_select(0, batch_idx);

            auto bos = torch::full({Y.size(0), 1}, tgt_vocab["<bos>"], torch::TensorOptions().dtype(torch::kLong).device(device));
            auto dec_input = torch::cat({bos, Y.index({Slice(), Slice(None, -1)})}, 1);
            torch::Tensor Y_hat, stat;
            std::tie(Y_hat, stat) = net->forward(X, dec_input);

            // mean over steps * steps = sum over the valid tokens of each sequence
            auto l = loss_fn.forward(Y_hat, Y, Y_valid_len) * Y.size(1);
            auto token_sum = l.sum();
            (token_sum / static_cast<double>(window_tokens)).backward();
            window_loss += token_sum.item<double>();
        }
        torch::nn::utils::clip_grad_norm_(net->parameters(), 1.0);
        optimizer.step();
        return {window_loss, window_tokens};
    };

    std::vector<double> epochs, plsum;
    for (int64_t epoch = 0; epoch < num_epochs; epoch++) {
        std::list<torch::Tensor> idx_iter = data_index_iter(src_array.size(0), batch_size, true);
        double t_loss = 0.0;
        int64_t n_wtks = 0;

        std::vector<torch::Tensor> window;
        size_t seen = 0;
        for (auto& batch_idx : idx_iter) {
            window.push_back(batch_idx.to(device));
            ++seen;
            if (window.size() < accum && seen < idx_iter.size()) continue;
            auto [wl, wt] = train_window(window);
            t_loss += wl;
            n_wtks += wt;
            window.clear();
        }

        if (epoch % 10 == 0) {
            std::cout << "epoch " << epoch << " loss/token: " << (t_loss / n_wtks) << std::endl;
            plsum.push_back(t_loss / n_wtks);
            epochs.push_back(1.0 * epoch);
        }
    }
    torch::save(net, "seq2seq.pt");
    return 0;
}
