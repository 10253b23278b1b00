// 8.5 Implementation of recurrent neural networks from scratch (character
// level, "The Time Machine"). The model is a set of raw parameter tensors; the
// updater is SGD over them. train_epoch_ch8 accumulates `accum_steps`
// minibatches per update so that longer BPTT windows fit in memory.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

#include "d2l_support.h"

struct RNNModelScratch {
    int64_t vocab_size;
    int64_t num_hiddens;
    torch::Device device;
    std::vector<torch::Tensor> params;

    RNNModelScratch(int64_t vocab_size, int64_t num_hiddens, torch::Device device)
        : vocab_size(vocab_size), num_hiddens(num_hiddens), device(device) {
        auto normal = [&](std::vector<int64_t> shape) {
            return (torch::randn(shape, device) * 0.01).requires_grad_(true);
        };
        // W_xh, W_hh, b_h, W_hq, b_q
        params = {normal({vocab_size, num_hiddens}), normal({num_hiddens, num_hiddens}),
                  torch::zeros({num_hiddens}, device).requires_grad_(true), normal({num_hiddens, vocab_size}),
                  torch::zeros({vocab_size}, device).requires_grad_(true)};
    }

    torch::Tensor begin_state(int64_t batch_size, torch::Device dev) const {
        return torch::zeros({batch_size, num_hiddens}, dev);
    }

    // X: [batch, steps] token ids -> (outputs [steps * batch, vocab], state)
    std::tuple<torch::Tensor, torch::Tensor> forward(const torch::Tensor& X, torch::Tensor H) {
        auto inputs = torch::one_hot(X.transpose(0, 1), vocab_size).to(torch::kFloat32);
        std::vector<torch::Tensor> outputs;
        for (int64_t t = 0; t < inputs.size(0); ++t) {
            H = torch::tanh(torch::mm(inputs[t], params[0]) + torch::mm(H, params[1]) + params[2]);
            outputs.push_back(torch::mm(H, params[3]) + params[4]);
        }
        return {torch::cat(outputs, 0), H};
    }
};

template <typename T>
std::string predict_ch8(const std::vector<std::string>& prefix, int64_t num_preds, T& net, const Vocab& vocab,
                        torch::Device device) {
    auto state = net.begin_state(1, device);
    std::vector<int64_t> outputs{vocab[prefix[0]]};
    for (size_t i = 1; i < prefix.size(); ++i) {
        torch::Tensor unused;
        auto X = torch::tensor({outputs.back()}, device).reshape({1, 1});
        std::tie(unused, state) = net.forward(X, state);
        outputs.push_back(vocab[prefix[i]]);
    }
    for (int64_t i = 0; i < num_preds; ++i) {
        torch::Tensor y;
        auto X = torch::tensor({outputs.back()}, device).reshape({1, 1});
        std::tie(y, state) = net.forward(X, state);
        outputs.push_back(y.argmax(1).reshape({1}).item<int64_t>());
    }
    std::string pred;
    for (auto p : outputs) pred += vocab.idx_to_token[p];
    return pred;
}

template <typename T>
std::pair<double, double> train_epoch_ch8(T& net, const std::vector<std::pair<torch::Tensor, torch::Tensor>>& train_iter,
                                          torch::nn::CrossEntropyLoss& loss, torch::optim::Optimizer& updater,
                                          torch::Device device, bool use_random_iter, int64_t accum_steps) {
    double ppx = 0.0;
    int64_t tot_tk = 0;
    precise_timer timer;
    torch::Tensor state = torch::empty({0});

    updater.zero_grad();
    for (size_t i = 0; i < train_iter.size(); i++) {
        auto X = train_iter[i].first.to(device);
        auto Y = train_iter[i].second;
        if (state.numel() == 0 || use_random_iter) {
            state = net.begin_state(X.size(0), device);
        } else {
            state.detach_();
        }

        torch::Tensor y = Y.transpose(0, 1).reshape({-1}).to(device);
        torch::Tensor y_hat;
        std::tie(y_hat, state) = net.forward(X, state);
        auto l = loss(y_hat, y.to(torch::kLong)).mean();

        (l / static_cast<double>(accum_steps)).backward();

        if ((i + 1) % accum_steps == 0) {
            // clip the summed gradient of the window
            torch::nn::utils::clip_grad_norm_(net.params, 0.5);
            updater.step();
            updater.zero_grad();
        }

        ppx += l.data().item<float>() * y.numel();
        tot_tk += y.numel();
    }
    const double seconds = timer.stop<unsigned int, std::chrono::microseconds>() / 1000000.0;
    return {std::exp(ppx / tot_tk), tot_tk / seconds};
}

template <typename T>
std::pair<std::vector<double>, std::vector<double>> train_ch8(
    T& net, const std::vector<std::pair<torch::Tensor, torch::Tensor>>& train_iter, const Vocab& vocab,
    torch::Device device, float lr, int64_t num_epochs, bool use_random_iter, int64_t accum_steps) {
    std::vector<std::string> prefix;
    for (char c : std::string("time traveller")) prefix.emplace_back(1, c);

    auto loss = torch::nn::CrossEntropyLoss();
    torch::optim::SGD updater(net.params, lr);

    std::vector<double> epochs, ppl;
    double eppl = 0.0, speed = 0.0;
    for (int64_t epoch = 0; epoch < num_epochs; epoch++) {
        std::tie(eppl, speed) = train_epoch_ch8(net, train_iter, loss, updater, device, use_random_iter, accum_steps);
        if ((epoch + 1) % 10 == 0) {
            std::cout << predict_ch8(prefix, 50, net, vocab, device) << std::endl;
            ppl.push_back(eppl);
            epochs.push_back(epoch + 1.0);
        }
    }
    printf("perplexity: %.1f, speed: %.1f tokens/sec on %s\n", eppl, speed, device.str().c_str());
    std::cout << predict_ch8(prefix, 50, net, vocab, device) << std::endl;
    return {epochs, ppl};
}

int main() {
    torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
    const int64_t batch_size = 32, num_steps = 35, num_hiddens = 512;
    const int64_t accum_steps = 4;
    auto [train_iter, vocab] = load_data_time_machine(batch_size, num_steps);

    RNNModelScratch net(vocab.length(), num_hiddens, device);
    const int64_t num_epochs = 500;
    const float lr = 1.0;
    train_ch8(net, train_iter, vocab, device, lr, num_epochs, /*use_random_iter=*/false, accum_steps);
    return 0;
}
