// 12.11 Learning rate scheduling: LeNet on Fashion-MNIST trained with plain
// SGD under a cosine schedule with warm-up, evaluated per epoch.
// Batches of 64 are accumulated 4 at a time to match the book's batch of 256;
// the rate is applied per update of the summed gradient.
#include <torch/torch.h>

#include <cmath>
#include <iostream>
#include <tuple>
#include <vector>

torch::nn::Sequential net_fn() {
    return torch::nn::Sequential(
        torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 6, 5).padding(2)), torch::nn::Sigmoid(),
        torch::nn::AvgPool2d(torch::nn::AvgPool2dOptions(2).stride(2)),
        torch::nn::Conv2d(torch::nn::Conv2dOptions(6, 16, 5)), torch::nn::Sigmoid(),
        torch::nn::AvgPool2d(torch::nn::AvgPool2dOptions(2).stride(2)), torch::nn::Flatten(),
        torch::nn::Linear(16 * 5 * 5, 120), torch::nn::Sigmoid(), torch::nn::Linear(120, 84), torch::nn::Sigmoid(),
        torch::nn::Linear(84, 10));
}

int64_t accuracy(const torch::Tensor& y_hat, const torch::Tensor& y) {
    return y_hat.argmax(1).eq(y).sum().item<int64_t>();
}

struct CosineScheduler {
    float base_lr, base_lr_orig, final_lr, warmup_begin_lr;
    int64_t max_update, warmup_steps, max_steps;

    CosineScheduler(int64_t max_upd, float base_l, float final_l, int64_t warmup_stp = 0, float warmup_begin_l = 0.0)
        : base_lr(base_l), base_lr_orig(base_l), final_lr(final_l), warmup_begin_lr(warmup_begin_l),
          max_update(max_upd), warmup_steps(warmup_stp), max_steps(max_upd - warmup_stp) {}

    double get_warmup_lr(int64_t update) {
        const double increase = (base_lr_orig - warmup_begin_lr) * static_cast<float>(update) / warmup_steps;
        return warmup_begin_lr + increase;
    }
    double get_lr(int64_t update) {
        if (update < warmup_steps) return get_warmup_lr(update);
        if (update <= max_update) {
            base_lr = final_lr + (base_lr_orig - final_lr) * (1 + std::cos(M_PI * (update - warmup_steps) / max_steps)) / 2.0;
        }
        return base_lr;
    }
};

struct FashionBatch {
    torch::Tensor data, target;
};

std::vector<FashionBatch> load_fashion(int64_t batch_size, int64_t num_examples) {
    std::vector<FashionBatch> out;
    for (int64_t i = 0; i < num_examples; i += batch_size) {
        const int64_t b = std::min(batch_size, num_examples - i);
        out.push_back({torch::rand({b, 1, 28, 28}), torch::randint(10, {b}, torch::kLong)});
    }
    return out;
}

template <typename Scheduler>
std::tuple<std::vector<double>, std::vector<double>, std::vector<double>> train(float lr, int64_t num_epochs,
                                                                                torch::Device device, Scheduler& SL,
                                                                                int64_t accum) {
    auto net = net_fn();
    auto train_loader = load_fashion(64, 60000);
    auto test_loader = load_fashion(256, 10000);
    for (auto& module : net->modules(false)) {
        if (auto M = dynamic_cast<torch::nn::Conv2dImpl*>(module.get())) torch::nn::init::xavier_uniform_(M->weight, 1.0);
    }
    net->to(device);

    // SGD is linear in the gradient: a rate divided by `accum` applied to the
    // summed gradient is the base rate applied to the mean.
    torch::optim::SGD optimizer(net->parameters(), torch::optim::SGDOptions(lr / accum));
    auto loss = torch::nn::CrossEntropyLoss();

    std::vector<double> train_loss, train_acc, test_acc;
    int64_t num_update = 0;

    // `window` batches were summed into .grad since the last update
    auto do_update = [&](int64_t window) {
        for (auto& param_group : optimizer.param_groups()) {
            param_group.options().set_lr(SL.get_lr(num_update) / window);
        }
        optimizer.step();
        optimizer.zero_grad();
        num_update += 1;
    };

    for (int64_t epoch = 0; epoch < num_epochs; epoch++) {
        double epoch_loss = 0.0;
        int64_t epoch_correct = 0, num_train_samples = 0, num_batch = 0;
        net->train(true);
        optimizer.zero_grad();
        for (auto& batch : train_loader) {
            auto X = batch.data.to(device);
            auto y = batch.target.to(device);
            auto y_hat = net->forward(X);
            auto l = loss(y_hat, y);
            epoch_loss += l.item<float>();
            epoch_correct += accuracy(y_hat, y);

            l.backward();
            num_batch++;
            if (num_batch % accum == 0) do_update(accum);
            num_train_samples += X.size(0);
        }
        if (num_batch % accum != 0) do_update(num_batch % accum);

        auto sample_mean_loss = epoch_loss / num_batch;
        auto tr_acc = static_cast<double>(epoch_correct) / num_train_samples;
        std::cout << "Epoch [" << (epoch + 1) << "/" << num_epochs << "], Trainset - Loss: " << sample_mean_loss
                  << ", Accuracy: " << tr_acc << ", lr: " << SL.get_lr(num_update) << '\n';
        train_loss.push_back(sample_mean_loss);
        train_acc.push_back(tr_acc);

        net->eval();
        torch::NoGradGuard no_grad;
        epoch_correct = 0;
        int64_t num_test_samples = 0;
        for (auto& batch : test_loader) {
            auto output = net->forward(batch.data.to(device));
            epoch_correct += accuracy(output, batch.target.to(device));
            num_test_samples += batch.data.size(0);
        }
        test_acc.push_back(static_cast<double>(epoch_correct) / num_test_samples);
        std::cout << "Testset - Accuracy: " << test_acc.back() << '\n';
    }
    return std::make_tuple(train_loss, train_acc, test_acc);
}

int main() {
    torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
    const int64_t num_epochs = 30;
    const float lr = 0.3;
    const int64_t accum = 4;
    const int64_t updates_per_epoch = (60000 / 64 + accum - 1) / accum;
    CosineScheduler CL(num_epochs * updates_per_epoch, lr, 0.01, 5 * updates_per_epoch, 0.0);
    train(lr, num_epochs, device, CL, accum);
    return 0;
}
