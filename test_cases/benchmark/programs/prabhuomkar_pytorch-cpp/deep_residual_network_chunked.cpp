// Deep residual network on CIFAR-10 with each batch processed in chunks,
// after tutorials/intermediate/deep_residual_network/src/main.cpp
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

    // Hyper parameters
    const int64_t num_classes = 10;
    const int64_t batch_size = 100;
    const int64_t chunks = 4;           // 25 images per forward pass
    const size_t num_epochs = 20;
    const double learning_rate = 0.001;
    const size_t learning_rate_decay_frequency = 8;
    const double learning_rate_decay_factor = 1.0 / 3.0;
    const double max_grad_norm = 1.0;

    const std::string CIFAR_data_path = "../../../../data/cifar10/";

    auto train_dataset = CIFAR10(CIFAR_data_path)
        .map(ConstantPad(4))
        .map(RandomHorizontalFlip())
        .map(RandomCrop({32, 32}))
        .map(torch::data::transforms::Stack<>());
    auto num_train_samples = train_dataset.size().value();

    auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        std::move(train_dataset), batch_size);

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

        for (auto& batch : *train_loader) {
            auto data_chunks = batch.data.to(device).chunk(chunks);
            auto target_chunks = batch.target.to(device).chunk(chunks);

            optimizer.zero_grad();
            for (size_t c = 0; c < data_chunks.size(); ++c) {
                auto output = model->forward(data_chunks[c]);
                auto loss = torch::nn::functional::cross_entropy(output, target_chunks[c]);
                (loss / static_cast<double>(data_chunks.size())).backward();
                torch::nn::utils::clip_grad_norm_(model->parameters(), max_grad_norm);

                running_loss += loss.item<double>() * data_chunks[c].size(0);
                num_correct += output.argmax(1).eq(target_chunks[c]).sum().item<int64_t>();
            }
            optimizer.step();
        }

        if ((epoch + 1) % learning_rate_decay_frequency == 0) {
            current_learning_rate *= learning_rate_decay_factor;
            static_cast<torch::optim::AdamOptions&>(optimizer.param_groups().front()
                .options()).lr(current_learning_rate);
        }

        std::cout << "Epoch [" << (epoch + 1) << "/" << num_epochs << "], Trainset - Loss: "
            << running_loss / num_train_samples << ", Accuracy: "
            << static_cast<double>(num_correct) / num_train_samples << '\n';
    }

    std::cout << "Training finished!\n";
    torch::save(model, "resnet_cifar10.pt");
}
