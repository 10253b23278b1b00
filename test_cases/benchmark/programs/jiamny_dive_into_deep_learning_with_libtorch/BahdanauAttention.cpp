// 11.4 Bahdanau attention: GRU encoder-decoder with additive attention over
// the encoder outputs, English -> French. Adam with betas (0.5, 0.999);
// each update covers `accum` minibatches of 64 sentence pairs and clips the
// gradient values of the window.
#include <torch/torch.h>

#include <iostream>
#include <list>
#include <vector>

#include "d2l_support.h"

using torch::indexing::None;
using torch::indexing::Slice;

struct AdditiveAttentionImpl : torch::nn::Module {
    torch::nn::Linear W_k{nullptr}, W_q{nullptr}, w_v{nullptr};
    AdditiveAttentionImpl(int64_t key_size, int64_t query_size, int64_t num_hiddens) {
        W_k = register_module("W_k", torch::nn::Linear(torch::nn::LinearOptions(key_size, num_hiddens).bias(false)));
        W_q = register_module("W_q", torch::nn::Linear(torch::nn::LinearOptions(query_size, num_hiddens).bias(false)));
        w_v = register_module("w_v", torch::nn::Linear(torch::nn::LinearOptions(num_hiddens, 1).bias(false)));
    }
    // queries [b, q, d], keys/values [b, k, d], valid_lens [b]
    torch::Tensor forward(const torch::Tensor& queries, const torch::Tensor& keys, const torch::Tensor& values,
                          const torch::Tensor& valid_lens) {
        auto features = torch::tanh(W_q->forward(queries).unsqueeze(2) + W_k->forward(keys).unsqueeze(1));
        auto scores = w_v->forward(features).squeeze(-1);
        auto mask = torch::arange(keys.size(1), valid_lens.options()).view({1, 1, -1}) < valid_lens.view({-1, 1, 1});
        auto attention = torch::softmax(scores.masked_fill(~mask, -1e6), -1);
        return torch::bmm(attention, values);
    }
};
TORCH_MODULE(AdditiveAttention);

struct Seq2SeqAttentionNetImpl : torch::nn::Module {
    torch::nn::Embedding enc_emb{nullptr}, dec_emb{nullptr};
    torch::nn::GRU enc_rnn{nullptr}, dec_rnn{nullptr};
    AdditiveAttention attention{nullptr};
    torch::nn::Linear dense{nullptr};

    Seq2SeqAttentionNetImpl(int64_t src_vocab, int64_t tgt_vocab, int64_t embed_size, int64_t num_hiddens,
                            int64_t num_layers, double dropout) {
        enc_emb = register_module("enc_emb", torch::nn::Embedding(src_vocab, embed_size));
        enc_rnn = register_module("enc_rnn", torch::nn::GRU(torch::nn::GRUOptions(embed_size, num_hiddens)
                                                                 .num_layers(num_layers).dropout(dropout).batch_first(true)));
        dec_emb = register_module("dec_emb", torch::nn::Embedding(tgt_vocab, embed_size));
        attention = register_module("attention", AdditiveAttention(num_hiddens, num_hiddens, num_hiddens));
        dec_rnn = register_module("dec_rnn", torch::nn::GRU(torch::nn::GRUOptions(embed_size + num_hiddens, num_hiddens)
                                                                 .num_layers(num_layers).dropout(dropout).batch_first(true)));
        dense = register_module("dense", torch::nn::Linear(num_hiddens, tgt_vocab));
    }

    torch::Tensor forward(const torch::Tensor& X, const torch::Tensor& dec_X, const torch::Tensor& X_valid_len) {
        auto [enc_outputs, hidden] = enc_rnn->forward(enc_emb->forward(X));
        auto emb = dec_emb->forward(dec_X);
        std::vector<torch::Tensor> outputs;
        for (int64_t t = 0; t < emb.size(1); ++t) {
            auto query = hidden[-1].unsqueeze(1);
            auto context = attention->forward(query, enc_outputs, enc_outputs, X_valid_len);
            auto x = torch::cat({context, emb.narrow(1, t, 1)}, -1);
            torch::Tensor out;
            std::tie(out, hidden) = dec_rnn->forward(x, hidden);
            outputs.push_back(out);
        }
        return dense->forward(torch::cat(outputs, 1));
    }
};
TORCH_MODULE(Seq2SeqAttentionNet);

int main() {
    torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
    int64_t embed_size = 32, num_hiddens = 32, num_layers = 2;
    double dropout = 0.1, lr = 0.005;
    int64_t batch_size = 64, num_steps = 10, num_epochs = 250;
    const int64_t accum = 2;

    Vocab src_vocab, tgt_vocab;
    torch::Tensor src_array, src_valid_len, tgt_array, tgt_valid_len;
    std::tie(src_array, src_valid_len, tgt_array, tgt_valid_len, src_vocab, tgt_vocab) =
        load_data_nmt("./data/fra-eng/fra.txt", num_steps, 600);

    auto net = Seq2SeqAttentionNet(src_vocab.length(), tgt_vocab.length(), embed_size, num_hiddens, num_layers, dropout);
    net->to(device);
    net->apply(xavier_init_weights);
    torch::optim::Adam optimizer(net->parameters(), torch::optim::AdamOptions(lr).betas({0.5, 0.999}));
    auto loss_fn = MaskedSoftmaxCELoss();
    net->train(true);

    std::vector<double> epochs, plsum;
    for (int64_t epoch = 0; epoch < num_epochs; epoch++) {
        std::list<torch::Tensor> idx_iter = data_index_iter(src_array.size(0), batch_size, true);
        const int64_t num_batches = static_cast<int64_t>(idx_iter.size());
        const int64_t tail_start = num_batches - num_batches % accum;
        float t_loss = 0.0;
        int64_t cnt = 0;

        for (auto& batch_idx : idx_iter) {
            const bool window_start = cnt % accum == 0;
            const bool window_end = (cnt + 1) % accum == 0 || cnt + 1 == num_batches;
            const int64_t window = cnt < tail_start ? accum : num_batches - tail_start;
            if (window_start) optimizer.zero_grad();

            batch_idx = batch_idx.to(device);
            auto X = src_array.index_select(0, batch_idx).to(device);
            auto X_valid_len = src_valid_len.index_select(0, batch_idx).to(device);
            auto Y = tgt_array.index_select(0, batch_idx).to(device);
            auto Y_valid_len = tgt_valid_len.index_select(0, batch_idx).to(device);
            auto bos = torch::full({Y.size(0), 1}, tgt_vocab["<bos>"], torch::TensorOptions().dtype(torch::kLong).device(device));
            auto dec_input = torch::cat({bos, Y.index({Slice(), Slice(None, -1)})}, 1);

            auto Y_hat = net->forward(X, dec_input, X_valid_len);
            auto l = loss_fn.forward(Y_hat, Y, Y_valid_len);
            (l.sum() / static_cast<double>(window)).backward();
            t_loss += l.sum().item<float>() / Y.size(0);
            cnt++;

            if (window_end) {
                torch::nn::utils::clip_grad_value_(net->parameters(), 1.0);
                optimizer.step();
            }
        }
        if (epoch % 10 == 0) {
            std::cout << "loss: " << (t_loss / cnt) << std::endl;
            plsum.push_back(t_loss / cnt);
            epochs.push_back(1.0 * epoch);
        }
    }
    torch::save(net, "bahdanau.pt");
    return 0;
}
