// Convolutional neural network on Imagenette, after tutorials/intermediate/convolutional_neural_network/src/main.cpp
#include <torch/torch.h>
#include <iostream>
#include <iomanip>
#include "prabhuomkar_support.hpp"

using dataset::ImageFolderDataset;

int main() {
    std::cout << "Convolutional Neural Network\n\n";

    auto cuda_available = torch::cuda::is_available();
    torch::Device device(cuda_available ? torch::kCUDA : torch::kCPU);
    std::cout << (cuda_available ? "CUDA available. Training on GPU." : "Training on CPU.") << '\n';

    // Hyper parameters: 8 images fit on the card, 4 batches of 8 make one update of 32
    const int64_t num_classes = 10;
    const int64_t batch_size = 8;
    const size_t accumulation_steps = 4;
    const size_t num_epochs = 10;
    const double learning_rate = 1e-3;
    const double weight_decay = 1e-3;

    const std::string imagenette_data_path = "../../../../data/imagenette2-160";

    auto train_dataset = ImageFolderDataset(imagenette_data_path, ImageFolderDataset::Mode::TRAIN, {160, 160})
        .map(torch::data::transforms::Normalize<>({0.485, 0.456, 0.406}, {0.229, 0.224, 0.225}))
        .map(torch::data::transforms::Stack<>());
    auto num_train_samples = train_dataset.size().value();
    const size_t num_batches = (num_train_samples + batch_size - 1) / batch_size;

    auto test_dataset = ImageFolderDataset(imagenette_data_path, ImageFolderDataset::Mode::VAL, {160, 160})
        .map(torch::data::transforms::Normalize<>({0.485, 0.456, 0.406}, {0.229, 0.224, 0.225}))
        .map(torch::data::transforms::Stack<>());
    auto num_test_samples = test_dataset.size().value();

    auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        std::move(train_dataset), batch_size);
    auto test_loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
        std::move(test_dataset), batch_size);

    ConvNet model(num_classes);
    model->to(device);

    torch::optim::Adam optimizer(
        model->parameters(), torch::optim::AdamOptions(learning_rate).weight_decay(weight_decay));

    std::cout << std::fixed << std::setprecision(4);
    std::cout << "Training...\n";

    for (size_t epoch = 0; epoch != num_epochs; ++epoch) {
        double running_loss = 0.0;
        size_t num_correct = 0;
        size_t batch_index = 0;

        optimizer.zero_grad();
        for (auto& batch : *train_loader) {
            auto data = batch.data.to(device);
            auto target = batch.target.to(device);

            // Forward pass
            auto output = model->forward(data);
            auto loss = torch::nn::functional::cross_entropy(output, target);

            running_loss += loss.item<double>() * data.size(0);
            auto prediction = output.argmax(1);
            num_correct += prediction.eq(target).sum().item<int64_t>();

            // Backward pass; the optimizer steps once per accumulation_steps batches
            loss.backward();
            if ((batch_index + 1) % accumulation_steps == 0 || batch_index + 1 == num_batches) {
                optimizer.step();
                optimizer.zero_grad();
            }
            ++batch_index;
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
        auto prediction = output.argmax(1);
        num_correct += prediction.eq(target).sum().item<int64_t>();
    }

    std::cout << "Testing finished!\n";
    auto test_accuracy = static_cast<double>(num_correct) / num_test_samples;
    auto test_sample_mean_loss = running_loss / num_test_samples;
    std::cout << "Testset - Loss: " << test_sample_mean_loss << ", Accuracy: " << test_accuracy << '\n';
}
