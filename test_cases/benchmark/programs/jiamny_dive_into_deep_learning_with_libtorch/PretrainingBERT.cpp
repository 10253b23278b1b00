// 14.10 Pretraining BERT on WikiText-2 (masked LM + next sentence prediction),
// spread over several processes with a Gloo process group. Every rank reads
// its own slice of the pretraining examples; gradients are averaged over the
// ranks before Adam steps, once per `accum_steps` minibatches.
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>

#include <cstdlib>
#include <iostream>
#include <tuple>
#include <vector>

// Small BERT: token + segment + position embeddings, a Transformer encoder,
// an MLM head over the predicted positions and an NSP head on <cls>.
struct BERTModelImpl : torch::nn::Module {
    torch::nn::Embedding token_embedding{nullptr}, segment_embedding{nullptr};
    torch::Tensor pos_embedding;
    torch::nn::TransformerEncoder encoder{nullptr};
    torch::nn::Sequential mlm{nullptr};
    torch::nn::Sequential hidden{nullptr};
    torch::nn::Linear nsp{nullptr};

    BERTModelImpl(int64_t vocab_size, int64_t num_hiddens, int64_t ffn_num_hiddens, int64_t num_heads,
                  int64_t num_layers, double dropout, int64_t max_len = 1000) {
        token_embedding = register_module("token_embedding", torch::nn::Embedding(vocab_size, num_hiddens));
        segment_embedding = register_module("segment_embedding", torch::nn::Embedding(2, num_hiddens));
        pos_embedding = register_parameter("pos_embedding", torch::randn({1, max_len, num_hiddens}));
        encoder = register_module("encoder", torch::nn::TransformerEncoder(torch::nn::TransformerEncoderOptions(
                                                 torch::nn::TransformerEncoderLayerOptions(num_hiddens, num_heads)
                                                     .dim_feedforward(ffn_num_hiddens)
                                                     .dropout(dropout),
                                                 num_layers)));
        mlm = register_module("mlm", torch::nn::Sequential(torch::nn::Linear(num_hiddens, num_hiddens), torch::nn::ReLU(),
                                                           torch::nn::LayerNorm(torch::nn::LayerNormOptions({num_hiddens})),
                                                           torch::nn::Linear(num_hiddens, vocab_size)));
        hidden = register_module("hidden", torch::nn::Sequential(torch::nn::Linear(num_hiddens, num_hiddens), torch::nn::Tanh()));
        nsp = register_module("nsp", torch::nn::Linear(num_hiddens, 2));
    }

    std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> forward(const torch::Tensor& tokens, const torch::Tensor& segments,
                                                                    const torch::Tensor& valid_lens,
                                                                    const torch::Tensor& pred_positions) {
        auto X = token_embedding->forward(tokens) + segment_embedding->forward(segments);
        X = X + pos_embedding.narrow(1, 0, X.size(1));
        auto pad_mask = torch::arange(tokens.size(1), tokens.options()).unsqueeze(0) >= valid_lens.unsqueeze(1);
        auto encoded = encoder->forward(X.transpose(0, 1), {}, pad_mask).transpose(0, 1);
        const int64_t batch = tokens.size(0), num_pred = pred_positions.size(1);
        auto batch_idx = torch::arange(batch, tokens.options()).repeat_interleave(num_pred);
        auto masked_X = encoded.index({batch_idx, pred_positions.reshape(-1)}).reshape({batch, num_pred, -1});
        auto mlm_Y_hat = mlm->forward(masked_X);
        auto nsp_Y_hat = nsp->forward(hidden->forward(encoded.select(1, 0)));
        return {encoded, mlm_Y_hat, nsp_Y_hat};
    }
};
TORCH_MODULE(BERTModel);

struct PretrainBatch {
    torch::Tensor tokens, segments, valid_lens, pred_positions, mlm_weights, mlm_labels, nsp_labels;
};

template <typename T>
std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> _get_batch_loss_bert(
    T& net, torch::nn::CrossEntropyLoss& loss, int64_t vocab_size, const PretrainBatch& b) {
    auto ft = net->forward(b.tokens, b.segments, b.valid_lens.reshape(-1), b.pred_positions);
    auto mlm_Y_hat = std::get<1>(ft), nsp_Y_hat = std::get<2>(ft);

    // masked LM loss, padded prediction positions weighted 0
    torch::Tensor mlm_l = loss(mlm_Y_hat.reshape({-1, vocab_size}), b.mlm_labels.to(torch::kLong).reshape(-1));
    mlm_l = torch::mul(mlm_l, b.mlm_weights.reshape({-1, 1}));
    mlm_l = mlm_l.sum().div(b.mlm_weights.sum().add(1e-8));

    torch::Tensor nsp_l = loss(nsp_Y_hat, b.nsp_labels.to(torch::kLong));
    return {mlm_l, nsp_l, mlm_l.add(nsp_l)};
}

// SUM all-reduce of each gradient, then the mean over the ranks.
void average_gradients(torch::nn::Module& net, c10d::ProcessGroup& pg) {
    for (auto& p : net.parameters()) {
        if (!p.grad().defined()) continue;
        std::vector<torch::Tensor> bucket{p.mutable_grad()};
        pg.allreduce(bucket)->wait();
        p.mutable_grad().div_(pg.getSize());
    }
}

template <typename T>
void train_bert(const std::vector<PretrainBatch>& train_iter, T& net, torch::nn::CrossEntropyLoss& loss,
                int64_t vocab_size, int64_t num_steps, int64_t accum_steps, c10::intrusive_ptr<c10d::ProcessGroup> pg) {
    torch::optim::Adam trainer(net->parameters(), torch::optim::AdamOptions(0.01));
    const int world_size = pg->getSize();
    const bool is_main = pg->getRank() == 0;

    int64_t step = 0;
    int64_t micro_step = 0;
    bool num_steps_reached = false;
    std::vector<double> MLM_loss, NSP_loss;

    trainer.zero_grad();
    while (step < num_steps && !num_steps_reached) {
        net->train();
        for (const auto& dt : train_iter) {
            auto lbert = _get_batch_loss_bert(net, loss, vocab_size, dt);
            torch::Tensor mlm_l = std::get<0>(lbert), nsp_l = std::get<1>(lbert), l = std::get<2>(lbert);

            // every rank contributes 1/world of the global mean
            auto scaled = l / static_cast<double>(accum_steps * world_size);
            scaled.backward();
            micro_step += 1;

            if (micro_step % accum_steps == 0) {
                average_gradients(*net, *pg);
                trainer.step();
                trainer.zero_grad();
                step += 1;

                MLM_loss.push_back(mlm_l.item<double>());
                NSP_loss.push_back(nsp_l.item<double>());
                if (is_main) {
                    std::cout << "Step: " << step << "; MLM loss: " << MLM_loss.back() << "; NSP loss : " << NSP_loss.back()
                              << '\n';
                }
                if (step == num_steps) {
                    num_steps_reached = true;
                    break;
                }
            }
        }
    }
}

int main() {
    const int rank = std::getenv("RANK") ? std::atoi(std::getenv("RANK")) : 0;
    const int world = std::getenv("WORLD_SIZE") ? std::atoi(std::getenv("WORLD_SIZE")) : 1;
    auto store = c10::make_intrusive<c10d::FileStore>("/tmp/bert_store", world);
    auto opts = c10d::ProcessGroupGloo::Options::create();
    opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    c10::intrusive_ptr<c10d::ProcessGroup> pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world, opts);

    torch::manual_seed(0);
    const int64_t vocab_size = 20256, batch_size = 512, max_len = 64, num_pred = 10;
    auto net = BERTModel(vocab_size, 128, 256, 2, 2, 0.2, max_len);
    auto loss = torch::nn::CrossEntropyLoss(torch::nn::CrossEntropyLossOptions().reduction(torch::kNone));

    std::vector<PretrainBatch> shard;
    for (int i = 0; i < 40; ++i) {
        shard.push_back({torch::randint(vocab_size, {batch_size / 8, max_len}, torch::kLong),
                         torch::randint(2, {batch_size / 8, max_len}, torch::kLong),
                         torch::full({batch_size / 8}, max_len, torch::kLong),
                         torch::randint(max_len, {batch_size / 8, num_pred}, torch::kLong),
                         torch::ones({batch_size / 8, num_pred}),
                         torch::randint(vocab_size, {batch_size / 8, num_pred}, torch::kLong),
                         torch::randint(2, {batch_size / 8}, torch::kLong)});
    }
    train_bert(shard, net, loss, vocab_size, /*num_steps=*/50, /*accum_steps=*/8, pg);
    return 0;
}
