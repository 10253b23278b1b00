// 10.2 Gated recurrent units (concise implementation): character-level GRU
// language model on "The Time Machine", wrapped in a small trainer class.
// The trainer keeps the model in half precision (kTrainDtype) and sums the
// gradients of `accum_steps` minibatches per SGD update.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "d2l_support.h"

struct RNNModelImpl : torch::nn::Module {
    torch::nn::GRU rnn{nullptr};
    torch::nn::Linear linear{nullptr};
    int64_t vocab_size, num_hiddens;

    RNNModelImpl(int64_t vocab_size, int64_t num_hiddens) : vocab_size(vocab_size), num_hiddens(num_hiddens) {
        rnn = register_module("rnn", torch::nn::GRU(torch::nn::GRUOptions(vocab_size, num_hiddens)));
        linear = register_module("linear", torch::nn::Linear(num_hiddens, vocab_size));
    }
    torch::Tensor begin_state(int64_t batch_size, const torch::TensorOptions& opts) {
        return torch::zeros({1, batch_size, num_hiddens}, opts);
    }
    std::tuple<torch::Tensor, torch::Tensor> forward(const torch::Tensor& inputs, const torch::Tensor& state) {
        auto X = torch::one_hot(inputs.transpose(0, 1), vocab_size).to(state.dtype());
        auto [Y, H] = rnn->forward(X, state);
        return {linear->forward(Y.reshape({-1, Y.size(-1)})), H};
    }
};
TORCH_MODULE(RNNModel);

class Ch9Trainer {
public:
    Ch9Trainer(RNNModel net, torch::Device device, double lr, int64_t accum_steps)
        : net_(net), device_(device), accum_steps_(accum_steps) {
        net_->to(device_, kTrainDtype);
        updater_ = std::make_unique<torch::optim::SGD>(net_->parameters(), torch::optim::SGDOptions(lr));
    }

    // One epoch over the minibatches; returns the perplexity.
    double train_epoch(const std::vector<std::pair<torch::Tensor, torch::Tensor>>& train_iter) {
        double ppx = 0.0;
        int64_t tot_tk = 0;
        torch::Tensor state;
        for (const auto& [Xb, Yb] : train_iter) {
            auto X = Xb.to(device_);
            if (!state.defined()) {
                state = net_->begin_state(X.size(0), torch::TensorOptions().dtype(kTrainDtype).device(device_));
            } else {
                state = state.detach();
            }
            auto y = Yb.transpose(0, 1).reshape({-1}).to(device_);
            torch::Tensor y_hat;
            std::tie(y_hat, state) = net_->forward(X, state);
            auto l = torch::nn::functional::cross_entropy(y_hat.to(torch::kFloat32), y);
            (l / static_cast<double>(accum_steps_)).backward();

            if (++seen_ % accum_steps_ == 0) {
                torch::nn::utils::clip_grad_norm_(net_->parameters(), 1.0);
                updater_->step();
                updater_->zero_grad();
            }
            ppx += l.item<double>() * y.numel();
            tot_tk += y.numel();
        }
        return std::exp(ppx / tot_tk);
    }

private:
    static constexpr torch::Dtype kTrainDtype = torch::kHalf;
    RNNModel net_;
    torch::Device device_;
    int64_t accum_steps_;
    int64_t seen_ = 0;
    std::unique_ptr<torch::optim::SGD> updater_;
};

int main() {
    torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
    const int64_t batch_size = 32, num_steps = 35, num_hiddens = 256, accum_steps = 4;
    auto [train_iter, vocab] = load_data_time_machine(batch_size, num_steps);

    Ch9Trainer trainer(RNNModel(vocab.length(), num_hiddens), device, /*lr=*/1.0, accum_steps);
    for (int64_t epoch = 0; epoch < 500; ++epoch) {
        const double ppl = trainer.train_epoch(train_iter);
        if ((epoch + 1) % 10 == 0) std::cout << "epoch " << (epoch + 1) << " perplexity " << ppl << "\n";
    }
    return 0;
}
