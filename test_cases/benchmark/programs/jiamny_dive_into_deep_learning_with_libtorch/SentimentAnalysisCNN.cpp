// 16.3 Sentiment analysis with textCNN: two GloVe embedding tables (one
// trainable, one frozen), parallel 1-D convolutions with max-over-time
// pooling and a linear classifier. train_batch_ch13 does the per-batch work;
// the caller tells it when the accumulated gradients should be applied.
#include <torch/torch.h>

#include <iostream>
#include <vector>

struct TextCNNImpl : public torch::nn::Module {
    torch::nn::Embedding embedding{nullptr};
    torch::nn::Embedding constant_embedding{nullptr};
    torch::nn::Dropout dropout{nullptr};
    torch::nn::Linear decoder{nullptr};
    torch::nn::AdaptiveMaxPool1d pool{nullptr};
    torch::nn::ModuleList convs{nullptr};

    TextCNNImpl(int64_t vocab_size, int64_t embed_size, const std::vector<int64_t>& kernel_sizes,
                const std::vector<int64_t>& num_channels) {
        embedding = register_module("embedding", torch::nn::Embedding(vocab_size, embed_size));
        constant_embedding = register_module("constant_embedding", torch::nn::Embedding(vocab_size, embed_size));
        dropout = register_module("dropout", torch::nn::Dropout(0.5));
        int64_t total = 0;
        for (auto c : num_channels) total += c;
        decoder = register_module("decoder", torch::nn::Linear(total, 2));
        pool = register_module("pool", torch::nn::AdaptiveMaxPool1d(1));
        convs = register_module("convs", torch::nn::ModuleList());
        for (size_t i = 0; i < kernel_sizes.size(); ++i) {
            convs->push_back(torch::nn::Conv1d(torch::nn::Conv1dOptions(2 * embed_size, num_channels[i], kernel_sizes[i])));
        }
    }

    torch::Tensor forward(const torch::Tensor& inputs) {
        auto embeddings = torch::cat({embedding->forward(inputs), constant_embedding->forward(inputs)}, 2).permute({0, 2, 1});
        std::vector<torch::Tensor> encs;
        for (const auto& conv : *convs) {
            auto out = conv->as<torch::nn::Conv1d>()->forward(embeddings);
            encs.push_back(torch::squeeze(torch::relu(pool->forward(out)), -1));
        }
        return decoder->forward(dropout->forward(torch::cat(encs, 1)));
    }
};
TORCH_MODULE(TextCNN);

// Forward/backward of one minibatch (mean loss over its examples scaled by
// 1/accum). When `apply` is set the accumulated gradients are applied.
// Returns the summed loss and the number of correct predictions.
std::pair<double, int64_t> train_batch_ch13(TextCNN& net, const torch::Tensor& X, const torch::Tensor& y,
                                            torch::nn::CrossEntropyLoss& loss, torch::optim::Optimizer& trainer,
                                            int64_t accum, bool apply) {
    net->train();
    auto pred = net->forward(X);
    auto l = loss(pred, y);
    (l.mean() / static_cast<double>(accum)).backward();
    torch::nn::utils::clip_grad_value_(net->parameters(), 0.5);
    if (apply) {
        trainer.step();
        trainer.zero_grad();
    }
    return {l.sum().item<double>(), pred.argmax(1).eq(y).sum().item<int64_t>()};
}

int main() {
    torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
    const int64_t batch_size = 64, num_steps = 500, vocab_size = 49346, embed_size = 100;
    const int64_t accum = 4;
    const int num_epochs = 5;
    const double lr = 0.001;

    const std::vector<int64_t> kernel_sizes{3, 4, 5}, nums_channels{100, 100, 100};
    auto net = TextCNN(vocab_size, embed_size, kernel_sizes, nums_channels);
    net->to(device);
    auto embeds = torch::randn({vocab_size, embed_size});
    net->embedding->weight.data().copy_(embeds);
    net->constant_embedding->weight.data().copy_(embeds);
    net->constant_embedding->weight.requires_grad_(false);

    std::vector<std::pair<torch::Tensor, torch::Tensor>> train_iter;
    for (int i = 0; i < 392; ++i) {
        train_iter.emplace_back(torch::randint(vocab_size, {batch_size, num_steps}, torch::kLong),
                                torch::randint(2, {batch_size}, torch::kLong));
    }

    torch::optim::Adam trainer(net->parameters(), torch::optim::AdamOptions(lr));
    auto loss = torch::nn::CrossEntropyLoss(torch::nn::CrossEntropyLossOptions().reduction(torch::kNone));

    for (int epoch = 0; epoch < num_epochs; ++epoch) {
        double loss_sum = 0.0;
        int64_t correct = 0, examples = 0;
        trainer.zero_grad();
        for (size_t i = 0; i < train_iter.size(); ++i) {
            const bool apply = (i + 1) % accum == 0 || i + 1 == train_iter.size();
            auto [l, acc] = train_batch_ch13(net, train_iter[i].first.to(device), train_iter[i].second.to(device), loss,
                                             trainer, accum, apply);
            loss_sum += l;
            correct += acc;
            examples += train_iter[i].second.size(0);
        }
        std::cout << "epoch " << (epoch + 1) << " loss " << loss_sum / examples << ", train acc "
                  << static_cast<double>(correct) / examples << "\n";
    }
    torch::save(net, "textcnn.pt");
    return 0;
}
