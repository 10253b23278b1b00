// 14.4 Pretraining word2vec (skip-gram, negative sampling) with the
// embedding tables kept in bfloat16 to halve their memory. Each minibatch is
// processed in `accum_steps` parts; after every part the bfloat16 gradients
// are moved into float32 buffers (and cleared), and the float32 sum is
// written back into .grad before Adam steps.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <vector>

template <typename T1, typename T2>
torch::Tensor skip_gram(torch::Tensor center, torch::Tensor contexts_and_negatives, T1 embed_v, T2 embed_u) {
    torch::Tensor v = embed_v->forward(center);
    torch::Tensor u = embed_u->forward(contexts_and_negatives);
    return torch::bmm(v, u.permute({0, 2, 1}));
}

// Binary cross entropy with masking, averaged over each row.
struct SigmoidBCELossImpl : public torch::nn::Module {
    torch::Tensor forward(torch::Tensor inputs, torch::Tensor target, torch::Tensor mask) {
        torch::Tensor out = torch::nn::functional::binary_cross_entropy_with_logits(
            inputs, target,
            torch::nn::functional::BinaryCrossEntropyWithLogitsFuncOptions().weight(mask).reduction(torch::kNone));
        return out.mean(1);
    }
};
TORCH_MODULE(SigmoidBCELoss);

struct Word2VecImpl : public torch::nn::Module {
    torch::nn::Embedding embed_v{nullptr}, embed_u{nullptr};

    Word2VecImpl(int64_t num_embeddings, int64_t embedding_dim) {
        embed_v = register_module("embed_v", torch::nn::Embedding(torch::nn::EmbeddingOptions(num_embeddings, embedding_dim)));
        embed_u = register_module("embed_u", torch::nn::Embedding(torch::nn::EmbeddingOptions(num_embeddings, embedding_dim)));
        init_weights();
    }
    void init_weights() {
        torch::NoGradGuard noGrad;
        torch::nn::init::xavier_uniform_(embed_v->weight);
        torch::nn::init::xavier_uniform_(embed_u->weight);
    }
};
TORCH_MODULE(Word2Vec);

// Centers, contexts+negatives, masks and labels of the PTB skip-gram examples.
struct PTBExamples {
    torch::Tensor centers, contexts_negatives, masks, labels;
};

PTBExamples load_data_ptb(int64_t num_examples, int64_t max_len, int64_t vocab_size) {
    return {torch::randint(vocab_size, {num_examples, 1}, torch::kLong),
            torch::randint(vocab_size, {num_examples, max_len}, torch::kLong),
            torch::ones({num_examples, max_len}),
            (torch::rand({num_examples, max_len}) < 0.2).to(torch::kFloat32)};
}

int main() {
    torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
    const int64_t batch_size = 512, max_len = 60, vocab_size = 6719;
    const int64_t accum_steps = 4;
    const int64_t part = batch_size / accum_steps;
    float lr = 0.002;
    int64_t num_epochs = 5;
    int64_t embed_size = 100;

    auto data = load_data_ptb(100000, max_len, vocab_size);
    auto net = Word2Vec(vocab_size, embed_size);
    net->to(device, torch::kBFloat16);
    auto optimizer = torch::optim::Adam(net->parameters(), torch::optim::AdamOptions(lr));
    auto loss = SigmoidBCELoss();

    auto params = net->parameters();
    std::vector<torch::Tensor> grad_accum;
    for (auto& p : params) grad_accum.push_back(torch::zeros_like(p, torch::kFloat32));

    std::vector<double> train_loss;
    int64_t micro = 0;
    for (int64_t epoch = 0; epoch < num_epochs; epoch++) {
        net->train();
        float loss_sum = 0.0;
        size_t num_batch = 0;
        auto perm = torch::randperm(data.centers.size(0), torch::kLong);
        const int64_t num_parts = data.centers.size(0) / part;

        for (int64_t b = 0; b < num_parts; ++b) {
            auto tidx = perm.narrow(0, b * part, part).to(device);
            torch::Tensor centers = torch::index_select(data.centers.to(device), 0, tidx);
            torch::Tensor ctx_neg_ts = torch::index_select(data.contexts_negatives.to(device), 0, tidx);
            torch::Tensor msk_ts = torch::index_select(data.masks.to(device), 0, tidx);
            torch::Tensor lbls = torch::index_select(data.labels.to(device), 0, tidx);

            auto pred = skip_gram(centers, ctx_neg_ts, net->embed_v, net->embed_u).to(torch::kFloat32);
            auto ll = loss(pred.reshape(lbls.sizes()), lbls, msk_ts);
            auto l = ll * msk_ts.size(1) / msk_ts.sum(1);
            // mean over the part's examples
            l.mean().backward();

            for (size_t k = 0; k < params.size(); ++k) {
                if (!params[k].grad().defined()) continue;
                grad_accum[k] += params[k].grad().to(torch::kFloat32);
                params[k].grad().zero_();
            }

            if (++micro % accum_steps == 0) {
                for (size_t k = 0; k < params.size(); ++k) {
                    params[k].mutable_grad() = (grad_accum[k] / accum_steps).to(params[k].dtype());
                }
                optimizer.step();
                optimizer.zero_grad();
                for (auto& a : grad_accum) a.zero_();
            }

            loss_sum += l.mean().item<float>();
            num_batch++;
        }
        train_loss.push_back(loss_sum / num_batch);
        std::cout << "epoch: " << (epoch + 1) << " avg_loss: " << (loss_sum / num_batch) << '\n';
    }
    torch::save(net, "word2vec_bf16.pt");
    std::cout << "Done\n";
    return 0;
}
