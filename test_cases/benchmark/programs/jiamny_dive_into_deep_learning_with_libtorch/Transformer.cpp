// 10.7 Transformer: encoder-decoder with multi-head attention trained on the
// English-French pairs. Adam with betas (0.5, 0.999); the learning rate is
// decayed by a StepLR schedule sized in optimizer updates. Each update sums
// the gradients of `accum` minibatches.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <list>
#include <vector>

#include "d2l_support.h"

using torch::indexing::None;
using torch::indexing::Slice;

struct PositionalEncodingImpl : torch::nn::Module {
    torch::nn::Dropout dropout{nullptr};
    torch::Tensor P;
    PositionalEncodingImpl(int64_t num_hiddens, double drop, int64_t max_len = 1000) {
        dropout = register_module("dropout", torch::nn::Dropout(drop));
        auto pos = torch::arange(max_len, torch::kFloat32).reshape({-1, 1});
        auto div = torch::pow(10000.0, torch::arange(0, num_hiddens, 2, torch::kFloat32) / num_hiddens);
        P = torch::zeros({1, max_len, num_hiddens});
        P.index_put_({0, Slice(), Slice(0, None, 2)}, torch::sin(pos / div));
        P.index_put_({0, Slice(), Slice(1, None, 2)}, torch::cos(pos / div));
        P = register_buffer("P", P);
    }
    torch::Tensor forward(const torch::Tensor& X) {
        return dropout->forward(X + P.index({Slice(), Slice(None, X.size(1)), Slice()}).to(X.device()));
    }
};
TORCH_MODULE(PositionalEncoding);

struct EncoderDecoderImpl : torch::nn::Module {
    torch::nn::Embedding src_emb{nullptr}, tgt_emb{nullptr};
    PositionalEncoding pos{nullptr};
    torch::nn::Transformer transformer{nullptr};
    torch::nn::Linear dense{nullptr};
    int64_t num_hiddens;

    EncoderDecoderImpl(int64_t src_vocab, int64_t tgt_vocab, int64_t num_hiddens, int64_t ffn_num_hiddens,
                       int64_t num_heads, int64_t num_layers, double dropout)
        : num_hiddens(num_hiddens) {
        src_emb = register_module("src_emb", torch::nn::Embedding(src_vocab, num_hiddens));
        tgt_emb = register_module("tgt_emb", torch::nn::Embedding(tgt_vocab, num_hiddens));
        pos = register_module("pos", PositionalEncoding(num_hiddens, dropout));
        transformer = register_module("transformer", torch::nn::Transformer(torch::nn::TransformerOptions(num_hiddens, num_heads)
                                                                                  .num_encoder_layers(num_layers)
                                                                                  .num_decoder_layers(num_layers)
                                                                                  .dim_feedforward(ffn_num_hiddens)
                                                                                  .dropout(dropout)));
        dense = register_module("dense", torch::nn::Linear(num_hiddens, tgt_vocab));
    }

    torch::Tensor forward(const torch::Tensor& enc_X, const torch::Tensor& dec_X) {
        const double scale = std::sqrt(static_cast<double>(num_hiddens));
        auto src = pos->forward(src_emb->forward(enc_X) * scale).transpose(0, 1);
        auto tgt = pos->forward(tgt_emb->forward(dec_X) * scale).transpose(0, 1);
        auto tgt_mask = torch::nn::TransformerImpl::generate_square_subsequent_mask(dec_X.size(1)).to(enc_X.device());
        auto out = transformer->forward(src, tgt, {}, tgt_mask);
        return dense->forward(out.transpose(0, 1));
    }
};
TORCH_MODULE(EncoderDecoder);

int main() {
    torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);

    int64_t num_hiddens = 32, num_layers = 2, ffn_num_hiddens = 64, num_heads = 4;
    double dropout = 0.1, lr = 0.005;
    int64_t batch_size = 64, num_steps = 10, num_epochs = 200;
    const int64_t accum = 4;

    Vocab src_vocab, tgt_vocab;
    torch::Tensor src_array, src_valid_len, tgt_array, tgt_valid_len;
    std::tie(src_array, src_valid_len, tgt_array, tgt_valid_len, src_vocab, tgt_vocab) =
        load_data_nmt("./data/fra-eng/fra.txt", num_steps, 600);

    auto net = EncoderDecoder(src_vocab.length(), tgt_vocab.length(), num_hiddens, ffn_num_hiddens, num_heads,
                              num_layers, dropout);
    net->to(device);
    net->apply(xavier_init_weights);

    torch::optim::Adam optimizer(net->parameters(), torch::optim::AdamOptions(lr).betas({0.5, 0.999}));
    // halve the rate every 100 updates
    torch::optim::StepLR scheduler(optimizer, /*step_size=*/100, /*gamma=*/0.5);

    auto loss_fn = MaskedSoftmaxCELoss();
    net->train(true);

    std::vector<double> epochs, plsum;
    std::vector<int64_t> wtks;
    src_array = src_array.to(device);
    src_valid_len = src_valid_len.to(device);
    tgt_array = tgt_array.to(device);
    tgt_valid_len = tgt_valid_len.to(device);

    for (int64_t epoch = 0; epoch < num_epochs; epoch++) {
        std::list<torch::Tensor> idx_iter = data_index_iter(src_array.size(0), batch_size, true);
        const int64_t num_batches = static_cast<int64_t>(idx_iter.size());
        float t_loss = 0.0;
        int64_t cnt = 0;
        int64_t n_wtks = 0;

        optimizer.zero_grad();
        for (auto& batch_idx : idx_iter) {
            batch_idx = batch_idx.to(device);
            auto X = src_array.index_select(0, batch_idx);
            auto Y = tgt_array.index_select(0, batch_idx);
            auto Y_valid_len = tgt_valid_len.index_select(0, batch_idx);

            auto bos = torch::full({Y.size(0), 1}, tgt_vocab["<bos>"], torch::TensorOptions().dtype(torch::kLong).device(device));
            torch::Tensor dec_input = torch::cat({bos, Y.index({Slice(), Slice(None, -1)})}, 1);
            auto Y_hat = net->forward(X, dec_input);

            auto l = loss_fn.forward(Y_hat, Y, Y_valid_len);
            (l.sum() / accum).backward();
            scheduler.step();

            t_loss += l.sum().item<float>() / Y.size(0);
            n_wtks += Y_valid_len.sum().item<int64_t>();
            cnt++;

            if (cnt % accum != 0 && cnt != num_batches) continue;

            torch::nn::utils::clip_grad_norm_(net->parameters(), 1.0);
            optimizer.step();
            optimizer.zero_grad();
        }

        if (epoch % 10 == 0) {
            std::cout << "loss: " << (t_loss / cnt) << std::endl;
            plsum.push_back(t_loss / cnt);
            wtks.push_back(n_wtks / cnt);
            epochs.push_back(1.0 * epoch);
        }
    }
    torch::save(net, "transformer.pt");
    return 0;
}
