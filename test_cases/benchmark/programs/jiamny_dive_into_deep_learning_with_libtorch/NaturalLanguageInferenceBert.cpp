// 16.7 Natural language inference: fine-tuning a small pretrained BERT on
// SNLI (entailment / contradiction / neutral), data-parallel over Gloo.
// The classifier is the BERT encoder plus an MLP on the <cls> representation.
// Each rank accumulates `accum_steps` minibatches per Adam update; the
// gradients are clipped and exchanged by prepare_gradients() at the boundary.
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>

#include <cstdlib>
#include <iostream>
#include <tuple>
#include <vector>

struct BERTEncoderImpl : torch::nn::Module {
    torch::nn::Embedding token_embedding{nullptr}, segment_embedding{nullptr};
    torch::Tensor pos_embedding;
    torch::nn::TransformerEncoder blks{nullptr};

    BERTEncoderImpl(int64_t vocab_size, int64_t num_hiddens, int64_t ffn_num_hiddens, int64_t num_heads,
                    int64_t num_layers, double dropout, int64_t max_len) {
        token_embedding = register_module("token_embedding", torch::nn::Embedding(vocab_size, num_hiddens));
        segment_embedding = register_module("segment_embedding", torch::nn::Embedding(2, num_hiddens));
        pos_embedding = register_parameter("pos_embedding", torch::randn({1, max_len, num_hiddens}));
        blks = register_module("blks", torch::nn::TransformerEncoder(torch::nn::TransformerEncoderOptions(
                                           torch::nn::TransformerEncoderLayerOptions(num_hiddens, num_heads)
                                               .dim_feedforward(ffn_num_hiddens)
                                               .dropout(dropout),
                                           num_layers)));
    }
    torch::Tensor forward(const torch::Tensor& tokens, const torch::Tensor& segments, const torch::Tensor& valid_lens) {
        auto X = token_embedding->forward(tokens) + segment_embedding->forward(segments);
        X = X + pos_embedding.narrow(1, 0, X.size(1));
        auto pad = torch::arange(tokens.size(1), tokens.options()).unsqueeze(0) >= valid_lens.unsqueeze(1);
        return blks->forward(X.transpose(0, 1), {}, pad).transpose(0, 1);
    }
};
TORCH_MODULE(BERTEncoder);

struct BERTClassifierImpl : public torch::nn::Module {
    BERTEncoder encoder{nullptr};
    torch::nn::Sequential hidden{nullptr};
    torch::nn::Linear output{nullptr};

    explicit BERTClassifierImpl(BERTEncoder bert) {
        encoder = register_module("encoder", bert);
        hidden = register_module("hidden", torch::nn::Sequential(torch::nn::Linear(256, 256), torch::nn::Tanh()));
        output = register_module("output", torch::nn::Linear(256, 3));
    }
    torch::Tensor forward(const torch::Tensor& tokens, const torch::Tensor& segments, const torch::Tensor& valid_lens) {
        auto encoded_X = encoder->forward(tokens, segments, valid_lens);
        return output->forward(hidden->forward(encoded_X.select(1, 0)));
    }
};
TORCH_MODULE(BERTClassifier);

struct SNLIBatch {
    torch::Tensor tokens, segments, valid_lens, labels;
};

// Clip to max_norm, then average the gradients over the ranks.
void prepare_gradients(BERTClassifier& net, c10d::ProcessGroup& pg, double max_norm) {
    auto params = net->parameters();
    torch::nn::utils::clip_grad_norm_(params, max_norm);
    std::vector<torch::Tensor> grads;
    for (auto& p : params) {
        if (p.grad().defined()) grads.push_back(p.grad());
    }
    pg.allreduce_coalesced(grads)->wait();
    for (auto& g : grads) g.div_(pg.getSize());
}

int main() {
    const int rank = std::getenv("RANK") ? std::atoi(std::getenv("RANK")) : 0;
    const int world = std::getenv("WORLD_SIZE") ? std::atoi(std::getenv("WORLD_SIZE")) : 1;
    auto store = c10::make_intrusive<c10d::FileStore>("/tmp/snli_store", world);
    auto opts = c10d::ProcessGroupGloo::Options::create();
    opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world, opts);

    const int64_t vocab_size = 20256, max_len = 128, batch_size = 64, accum_steps = 4;
    const float lr = 1e-4;
    const int num_epochs = 5;

    torch::manual_seed(0);
    auto bert = BERTEncoder(vocab_size, 256, 512, 4, 2, 0.1, max_len);
    auto net = BERTClassifier(bert);

    std::vector<SNLIBatch> train_iter;
    torch::manual_seed(rank + 1);
    for (int i = 0; i < 240; ++i) {
        train_iter.push_back({torch::randint(vocab_size, {batch_size, max_len}, torch::kLong),
                              torch::randint(2, {batch_size, max_len}, torch::kLong),
                              torch::randint(10, max_len, {batch_size}, torch::kLong),
                              torch::randint(3, {batch_size}, torch::kLong)});
    }

    torch::optim::Adam optimizer(net->parameters(), torch::optim::AdamOptions(lr));
    auto criterion = torch::nn::CrossEntropyLoss();

    for (int epoch = 0; epoch < num_epochs; epoch++) {
        net->train();
        float loss_sum = 0.0;
        int64_t total_correct = 0, total_counter = 0;
        optimizer.zero_grad();
        for (size_t i = 0; i < train_iter.size(); ++i) {
            const auto& dt = train_iter[i];
            auto pred = net->forward(dt.tokens, dt.segments, dt.valid_lens);
            auto loss = criterion(pred, dt.labels);
            (loss / accum_steps).backward();

            if (i % accum_steps == accum_steps - 1) {
                prepare_gradients(net, *pg, 1.0);
                optimizer.step();
                optimizer.zero_grad();
            }
            loss_sum += loss.item<float>() * dt.labels.size(0);
            total_correct += pred.argmax(1).eq(dt.labels).sum().item<int64_t>();
            total_counter += dt.labels.size(0);
        }
        if (rank == 0) {
            printf("epoch %d train loss: %.3f train acc: %.3f\n", epoch + 1, loss_sum / total_counter,
                   total_correct * 1.0 / total_counter);
        }
    }
    return 0;
}
