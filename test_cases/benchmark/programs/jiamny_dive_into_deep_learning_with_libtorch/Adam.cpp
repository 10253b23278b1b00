// 12.10 Adam from scratch: linear regression on the airfoil data with a
// hand-written Adam update over (w, b). The update also clears the
// gradients it consumed. Minibatches of 10 are accumulated `accum` at a time.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <map>
#include <string>
#include <vector>

std::vector<std::pair<torch::Tensor, torch::Tensor>> init_adam_states(int64_t feature_dim) {
    torch::Tensor v_w = torch::zeros({feature_dim, 1}), v_b = torch::zeros(1);
    torch::Tensor s_w = torch::zeros({feature_dim, 1}), s_b = torch::zeros(1);
    return {std::make_pair(v_w, s_w), std::make_pair(v_b, s_b)};
}

// Bias-corrected Adam step on every parameter, then the gradient is zeroed.
void adam(std::vector<torch::Tensor>& params, std::vector<std::pair<torch::Tensor, torch::Tensor>>& states,
          std::map<std::string, float>& hyperparams) {
    const float beta1 = 0.9, beta2 = 0.999, eps = 1e-6;
    torch::NoGradGuard no_grad;
    for (size_t i = 0; i < params.size(); i++) {
        auto& p = params[i];
        auto& v = states[i].first;
        auto& s = states[i].second;
        v.mul_(beta1).add_((1 - beta1) * p.grad());
        s.mul_(beta2).add_((1 - beta2) * torch::square(p.grad()));
        auto v_bias_corr = v / (1 - std::pow(beta1, hyperparams["t"]));
        auto s_bias_corr = s / (1 - std::pow(beta2, hyperparams["t"]));
        p.sub_(hyperparams["lr"] * v_bias_corr / (torch::sqrt(s_bias_corr) + eps));
        p.grad().zero_();
    }
    hyperparams["t"] += 1;
}

torch::Tensor linreg(const torch::Tensor& X, const torch::Tensor& w, const torch::Tensor& b) {
    return torch::matmul(X, w) + b;
}

torch::Tensor squared_loss(const torch::Tensor& y_hat, const torch::Tensor& y) {
    return torch::pow(y_hat - y.reshape(y_hat.sizes()), 2) / 2;
}

int main() {
    torch::manual_seed(1000);
    const int64_t num_records = 1500, feature_dim = 5, batch_size = 10, accum = 4;
    const int num_epochs = 2;
    auto data = torch::randn({num_records, feature_dim});
    auto label = torch::matmul(data, torch::randn({feature_dim, 1})) + 0.1 * torch::randn({num_records, 1});

    auto w = torch::normal(0.0, 0.01, {feature_dim, 1}).requires_grad_(true);
    auto b = torch::zeros({1}).requires_grad_(true);
    std::vector<torch::Tensor> params{w, b};
    auto states = init_adam_states(feature_dim);
    std::map<std::string, float> hyperparams{{"lr", 0.01f}, {"t", 1.0f}};

    for (int epoch = 0; epoch < num_epochs; ++epoch) {
        auto perm = torch::randperm(num_records, torch::kLong);
        const int64_t num_batches = num_records / batch_size;
        double t_loss = 0.0;
        int64_t in_window = 0;
        for (int64_t i = 0; i < num_batches; ++i) {
            auto idx = perm.narrow(0, i * batch_size, batch_size);
            auto X = data.index_select(0, idx);
            auto y = label.index_select(0, idx);
            auto l = squared_loss(linreg(X, w, b), y).mean();
            (l / static_cast<double>(accum)).backward();
            t_loss += l.item<double>();
            if (++in_window == accum) {
                adam(params, states, hyperparams);
                in_window = 0;
            }
        }
        if (in_window > 0) {
            // the leftover minibatches were scaled by 1/accum; rescale to their mean
            for (auto& p : params) p.grad().mul_(static_cast<double>(accum) / in_window);
            adam(params, states, hyperparams);
        }
        std::cout << "Epoch: " << (epoch + 1) << ", loss: " << t_loss / num_batches << ", updates: " << hyperparams["t"] - 1
                  << "\n";
    }
    return 0;
}
