// 9.1 Working with sequences: an MLP autoregressive model x_t ~ f(x_{t-tau},
// ..., x_{t-1}) on a noisy sine, then 1-step and k-step-ahead predictions.
// The tiny batches of the book (16) are accumulated into updates of 64
// examples by train_step(), which keeps its own count of calls.
#include <torch/torch.h>

#include <iostream>
#include <vector>

using torch::indexing::Slice;

torch::nn::Sequential get_net() {
    auto net = torch::nn::Sequential(torch::nn::Linear(4, 10), torch::nn::ReLU(), torch::nn::Linear(10, 1));
    for (auto& module : net->modules(false)) {
        if (auto M = dynamic_cast<torch::nn::LinearImpl*>(module.get())) torch::nn::init::xavier_uniform_(M->weight);
    }
    return net;
}

// One minibatch; Adam steps on every `kAccum`-th call.
constexpr int kAccum = 4;
double train_step(torch::nn::Sequential& net, torch::nn::MSELoss& loss, torch::optim::Adam& trainer,
                  const torch::Tensor& X, const torch::Tensor& y) {
    static int calls = 0;
    auto l = loss(net->forward(X), y);
    l.backward();
    if (++calls % kAccum == 0) {
        trainer.step();
        trainer.zero_grad();
    }
    return l.item<double>();
}

int main() {
    const int64_t T = 1000, tau = 4, batch_size = 16, n_train = 600;
    const int epochs = 5;
    const double lr = 0.01;

    auto time = torch::arange(1, T + 1, torch::kFloat32);
    auto x = torch::sin(0.01 * time) + torch::normal(0, 0.2, {T});

    auto features = torch::zeros({T - tau, tau});
    for (int i = 0; i < tau; i++) features.index_put_({Slice(), i}, x.index({Slice(i, T - tau + i)}));
    auto labels = x.index({Slice(tau, T)}).reshape({-1, 1}).clone();

    auto net = get_net();
    auto loss = torch::nn::MSELoss();
    auto trainer = torch::optim::Adam(net->parameters(), lr);
    trainer.zero_grad();

    // 600 training rows make 37.5 minibatches: the last one is dropped.
    const int64_t num_batches = n_train / batch_size;
    for (int epoch = 0; epoch < epochs; epoch++) {
        auto perm = torch::randperm(n_train, torch::kLong);
        double epoch_loss = 0.0;
        for (int64_t b = 0; b < num_batches; ++b) {
            auto idx = perm.narrow(0, b * batch_size, batch_size);
            epoch_loss += train_step(net, loss, trainer, features.index_select(0, idx), labels.index_select(0, idx));
        }
        std::cout << "epoch " << (epoch + 1) << ", loss: " << epoch_loss / num_batches << "\n";
    }

    // one-step-ahead predictions on the whole series
    torch::NoGradGuard no_grad;
    net->eval();
    auto onestep_preds = net->forward(features);
    std::cout << "1-step MSE: " << torch::mse_loss(onestep_preds, labels).item<double>() << "\n";
    return 0;
}
