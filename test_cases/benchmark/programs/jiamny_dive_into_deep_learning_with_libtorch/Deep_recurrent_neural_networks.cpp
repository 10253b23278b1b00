// 10.3 Deep recurrent neural networks: a 2-layer LSTM character model on
// "The Time Machine", trained data-parallel over a Gloo process group.
// Each rank walks its own sequence of minibatches; gradients are summed over
// the ranks and averaged before the SGD update, every `accum_steps` minibatches.
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "d2l_support.h"

struct RNNModeldeeprnnImpl : public torch::nn::Module {
    torch::nn::LSTM rnn{nullptr};
    torch::nn::Linear linear{nullptr};
    int64_t vocab_size, num_hiddens, num_layers;

    RNNModeldeeprnnImpl(torch::nn::LSTM rnn_layer, int64_t vocab_size) : vocab_size(vocab_size) {
        rnn = register_module("rnn", rnn_layer);
        num_hiddens = rnn_layer->options.hidden_size();
        num_layers = rnn_layer->options.num_layers();
        linear = register_module("linear", torch::nn::Linear(num_hiddens, vocab_size));
    }
    std::tuple<torch::Tensor, torch::Tensor> begin_state(int64_t batch_size, torch::Device device) {
        return {torch::zeros({num_layers, batch_size, num_hiddens}, device),
                torch::zeros({num_layers, batch_size, num_hiddens}, device)};
    }
    std::tuple<torch::Tensor, std::tuple<torch::Tensor, torch::Tensor>> forward(
        const torch::Tensor& inputs, std::tuple<torch::Tensor, torch::Tensor> state) {
        auto X = torch::one_hot(inputs.transpose(0, 1), vocab_size).to(torch::kFloat32);
        auto [Y, new_state] = rnn->forward(X, state);
        return {linear->forward(Y.reshape({-1, Y.size(-1)})), new_state};
    }
};
TORCH_MODULE(RNNModeldeeprnn);

// Backward pass of one minibatch followed by an exchange of the gradients
// with the other ranks (element-wise sum).
void backward_and_share(const torch::Tensor& l, RNNModeldeeprnn& net, c10d::ProcessGroup& pg) {
    l.backward();
    for (auto& p : net->parameters()) {
        if (!p.grad().defined()) continue;
        std::vector<torch::Tensor> t{p.grad()};
        pg.allreduce(t)->wait();
    }
}

double train_epoch_ch9(RNNModeldeeprnn& net, const std::vector<std::pair<torch::Tensor, torch::Tensor>>& train_iter,
                       torch::nn::CrossEntropyLoss& loss, torch::optim::SGD& updater, torch::Device device,
                       c10d::ProcessGroup& pg, int64_t accum_steps) {
    const int world = pg.getSize();
    double ppx = 0.0;
    int64_t tot_tk = 0;
    std::tuple<torch::Tensor, torch::Tensor> state;
    bool has_state = false;

    updater.zero_grad();
    const size_t n = train_iter.size() - train_iter.size() % accum_steps;
    for (size_t i = 0; i < n; i++) {
        auto X = train_iter[i].first.to(device);
        auto Y = train_iter[i].second;
        if (!has_state) {
            state = net->begin_state(X.size(0), device);
            has_state = true;
        } else {
            std::get<0>(state).detach_();
            std::get<1>(state).detach_();
        }
        auto y = Y.transpose(0, 1).reshape({-1}).to(device);
        torch::Tensor y_hat;
        std::tie(y_hat, state) = net->forward(X, state);
        auto l = loss(y_hat, y.to(torch::kLong)).mean();

        backward_and_share(l / static_cast<double>(accum_steps), net, pg);

        if ((i + 1) % accum_steps == 0) {
            for (auto& p : net->parameters()) {
                if (p.grad().defined()) p.grad().div_(world);
            }
            torch::nn::utils::clip_grad_norm_(net->parameters(), 1.0);
            updater.step();
            updater.zero_grad();
        }
        ppx += l.item<double>() * y.numel();
        tot_tk += y.numel();
    }
    return std::exp(ppx / tot_tk);
}

int main() {
    const int rank = std::getenv("RANK") ? std::atoi(std::getenv("RANK")) : 0;
    const int world = std::getenv("WORLD_SIZE") ? std::atoi(std::getenv("WORLD_SIZE")) : 1;
    auto store = c10::make_intrusive<c10d::FileStore>("/tmp/deeprnn_store", world);
    auto opts = c10d::ProcessGroupGloo::Options::create();
    opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world, opts);

    torch::Device device(torch::kCPU);
    const int64_t batch_size = 32, num_steps = 35, num_hiddens = 256, num_layers = 2, accum_steps = 2;
    torch::manual_seed(rank);
    auto [train_iter, vocab] = load_data_time_machine(batch_size, num_steps);

    torch::manual_seed(0);
    torch::nn::LSTM lstm_layer(torch::nn::LSTMOptions(vocab.length(), num_hiddens).num_layers(num_layers));
    auto net = RNNModeldeeprnn(lstm_layer, vocab.length());
    net->to(device);

    auto loss = torch::nn::CrossEntropyLoss();
    torch::optim::SGD updater(net->parameters(), torch::optim::SGDOptions(2.0));
    for (int64_t epoch = 0; epoch < 500; epoch++) {
        const double ppl = train_epoch_ch9(net, train_iter, loss, updater, device, *pg, accum_steps);
        if (rank == 0 && (epoch + 1) % 10 == 0) std::cout << "epoch " << (epoch + 1) << " perplexity " << ppl << "\n";
    }
    return 0;
}
