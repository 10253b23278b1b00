// Deep residual network on CIFAR-10, after tutorials/intermediate/deep_residual_network/src/main.cpp
#include <torch/torch.h>
#include <iostream>
#include <iomanip>
#include "prabhuomkar_support.hpp"

using resnet::ResNet;
using resnet::ResidualBlock;
using transform::ConstantPad;
using transform::RandomCrop;
using transform::RandomHorizontalFlip;

int main() {
    std::cout << "Deep Residual Network\n\n";

    auto cuda_available = torch::cuda::is_available();
    torch::Device device(cuda_available ? torch::kCUDA : torch::kCPU);
    std::cout << (cuda_available ? "CUDA available. Training on GPU." : "Training on CPU.") << '\n';

    // Hyper parameters (batches of 25, four of them per update = the tutorial's 100)
    const int64_t num_classes = 10;
    const int64_t batch_size = 25;
    const size_t updates_every = 4;
    const size_t num_epochs = 20;
    const double learning_rate = 0.001;
    const size_t learning_rate_decay_frequency = 8;
    const double learning_rate_decay_factor = 1.0 / 3.0;
    const double max_grad_norm = 5.0;

    const std::string CIFAR_data_path = "../../../../data/cifar10/";

    auto train_dataset = CIFAR10(CIFAR_data_path)
        .map(ConstantPad(4))
        .map(RandomHorizontalFlip())
        .map(RandomCrop({32, 32}))
        .map(torch::data::transforms::Stack<>());
    auto num_train_samples = train_dataset.size().value();
    const size_t batches_per_epoch = (num_train_samples + batch_size - 1) / batch_size;

    auto test_dataset = CIFAR10(CIFAR_data_path, CIFAR10::Mode::kTest)
        .map(torch::data::transforms::Stack<>());
    auto num_test_samples = test_dataset.size().value();

    auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        std::move(train_dataset), batch_size);
    auto test_loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
        std::move(test_dataset), batch_size);

    std::array<int64_t, 3> layers{2, 2, 2};
    ResNet<ResidualBlock> model(layers, num_classes);
    model->to(device);

    torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(learning_rate));

    std::cout << std::fixed << std::setprecision(4);

    auto current_learning_rate = learning_rate;

    std::cout << "Training...\n";

    for (size_t epoch = 0; epoch != num_epochs; ++epoch) {
        double running_loss = 0.0;
        size_t num_correct = 0;
        size_t batch_idx = 0;

        for (auto& batch : *train_loader) {
            auto data = batch.data.to(device);
            auto target = batch.target.to(device);

            // a new window starts with empty gradients
            if (batch_idx % updates_every == 0) {
                optimizer.zero_grad();
            }

            auto output = model->forward(data);
            auto loss = torch::nn::functional::cross_entropy(output, target);

            running_loss += loss.item<double>() * data.size(0);
            auto prediction = output.argmax(1);
            num_correct += prediction.eq(target).sum().item<int64_t>();

            loss.div(static_cast<double>(updates_every)).backward();

            const bool last_batch = batch_idx + 1 == batches_per_epoch;
            if ((batch_idx + 1) % updates_every == 0 || last_batch) {
                torch::nn::utils::clip_grad_norm_(model->parameters(), max_grad_norm);
                optimizer.step();
            }
            ++batch_idx;
        }

        // Decay learning rate (once per epoch, independent of the window size)
        if ((epoch + 1) % learning_rate_decay_frequency == 0) {
            current_learning_rate *= learning_rate_decay_factor;
            static_cast<torch::optim::AdamOptions&>(optimizer.param_groups().front()
                .options()).lr(current_learning_rate);
        }

        auto sample_mean_loss = running_loss / num_train_samples;
        auto accuracy = static_cast<double>(num_correct) / num_train_samples;

        std::cout << "Epoch [" << (epoch + 1) << "/" << num_epochs << "], Trainset - Loss: "
            << sample_mean_loss << ", Accuracy: " << accuracy << '\n';
    }

    std::cout << "Training finished!\n\n";
    std::cout << "Testing...\n";

    model->eval();
    torch::NoGradGuard no_grad;

    double running_loss = 0.0;
    size_t num_correct = 0;

    for (const auto& batch : *test_loader) {
        auto data = batch.data.to(device);
        auto target = batch.target.to(device);
        auto output = model->forward(data);
        auto loss = torch::nn::functional::cross_entropy(output, target);
        running_loss += loss.item<double>() * data.size(0);
        num_correct += output.argmax(1).eq(target).sum().item<int64_t>();
    }

    std::cout << "Testing finished!\n";
    std::cout << "Testset - Loss: " << running_loss / num_test_samples << ", Accuracy: "
        << static_cast<double>(num_correct) / num_test_samples << '\n';
}
