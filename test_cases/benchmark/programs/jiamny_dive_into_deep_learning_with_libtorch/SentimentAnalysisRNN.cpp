// 15.2 Sentiment analysis with a bidirectional LSTM over pretrained GloVe
// vectors (IMDb). The per-example losses are summed (reduction "none" then
// sum); to train with 4x larger batches the summed gradients of several
// minibatches are gathered and turned into a per-example mean before Adam.
#include <torch/torch.h>

#include <iostream>
#include <string>
#include <vector>

#include "d2l_support.h"

struct BiRNNImpl : public torch::nn::Module {
    torch::nn::Linear decoder{nullptr};
    torch::nn::LSTM encoder{nullptr};
    torch::nn::Embedding embedding{nullptr};

    BiRNNImpl(int vocab_size, int embed_size, int num_hiddens, int num_layers) {
        embedding = register_module("embedding", torch::nn::Embedding(vocab_size, embed_size));
        encoder = register_module("encoder", torch::nn::LSTM(torch::nn::LSTMOptions(embed_size, num_hiddens)
                                                                 .num_layers(num_layers)
                                                                 .bidirectional(true)));
        decoder = register_module("decoder", torch::nn::Linear(4 * num_hiddens, 2));
    }

    torch::Tensor forward(torch::Tensor inputs) {
        // (steps, batch, embed)
        torch::Tensor embeddings = embedding->forward(inputs.transpose(1, 0));
        encoder->flatten_parameters();
        torch::Tensor outputs = std::get<0>(encoder->forward(embeddings));
        // first and last time step of the bidirectional output
        torch::Tensor encoding = torch::cat({outputs[0], outputs[-1]}, 1);
        return decoder->forward(encoding);
    }
};
TORCH_MODULE(BiRNN);

int64_t accuracy(const torch::Tensor& y_hat, const torch::Tensor& y) {
    return y_hat.argmax(1).eq(y).sum().item<int64_t>();
}

struct ImdbBatch {
    torch::Tensor features;  // [b, num_steps]
    torch::Tensor labels;    // [b]
};

std::vector<ImdbBatch> load_data_imdb(int64_t batch_size, int64_t num_steps, int64_t num_batches, int64_t vocab_size) {
    std::vector<ImdbBatch> batches;
    for (int64_t i = 0; i < num_batches; ++i) {
        batches.push_back({torch::randint(vocab_size, {batch_size, num_steps}, torch::kLong),
                           torch::randint(2, {batch_size}, torch::kLong)});
    }
    return batches;
}

int main() {
    torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
    const int64_t batch_size = 64, num_steps = 500, vocab_size = 49346;
    const size_t accum = 4;
    auto train_iter = load_data_imdb(batch_size, num_steps, 391, vocab_size);
    auto test_iter = load_data_imdb(batch_size, num_steps, 50, vocab_size);

    int embed_size = 100, num_hiddens = 100, num_layers = 2;
    auto net = BiRNN(vocab_size, embed_size, num_hiddens, num_layers);
    net->to(device);

    // GloVe vectors, frozen
    auto embeds = torch::randn({vocab_size, embed_size});
    net->embedding->weight.data().copy_(embeds);
    net->embedding->weight.requires_grad_(false);

    float lr = 0.01;
    int num_epochs = 30;
    auto trainer = torch::optim::Adam(net->parameters(), lr);
    auto loss = torch::nn::CrossEntropyLoss(torch::nn::CrossEntropyLossOptions().reduction(torch::kNone));

    std::vector<double> train_loss, train_acc, test_acc;
    for (int epoch = 1; epoch <= num_epochs; epoch++) {
        net->train();
        float loss_sum = 0.0;
        int64_t total_corrects = 0, total_samples = 0;
        size_t num_batch = 0;

        size_t batches_in_window = 0;
        int64_t samples_in_window = 0;
        // Summed gradients -> mean over the window's examples, then one update.
        auto apply_window = [&]() {
            for (auto& p : net->parameters()) {
                if (p.grad().defined()) p.grad().div_(static_cast<double>(samples_in_window));
            }
            trainer.step();
            trainer.zero_grad();
            batches_in_window = 0;
            samples_in_window = 0;
        };

        trainer.zero_grad();
        for (auto& batch_data : train_iter) {
            auto ftr_data = batch_data.features.to(device);
            auto lab_data = batch_data.labels.to(device);

            auto pred = net->forward(ftr_data);
            auto l = loss(pred, lab_data);
            l.sum().backward();
            batches_in_window += 1;
            samples_in_window += ftr_data.size(0);

            if (batches_in_window == accum) apply_window();

            loss_sum += l.sum().item<float>() / ftr_data.size(0);
            total_corrects += accuracy(pred, lab_data);
            total_samples += ftr_data.size(0);
            num_batch++;
        }
        if (batches_in_window > 0) apply_window();

        train_loss.push_back(loss_sum / num_batch);
        train_acc.push_back(total_corrects * 1.0 / total_samples);
        std::cout << "loss: " << (loss_sum / num_batch) << ", train acc: " << train_acc.back() << '\n';

        net->eval();
        torch::NoGradGuard no_grad;
        total_corrects = 0, total_samples = 0;
        for (auto& batch_data : test_iter) {
            auto pred = net->forward(batch_data.features.to(device));
            total_corrects += accuracy(pred, batch_data.labels.to(device));
            total_samples += batch_data.features.size(0);
        }
        test_acc.push_back(total_corrects * 1.0 / total_samples);
        std::cout << "test acc: " << test_acc.back() << '\n';
    }
    torch::save(net, "text_rnn_model.pt");
    std::cout << "Done!\n";
    return 0;
}
