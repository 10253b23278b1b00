// Logistic regression on MNIST with accumulated mini-batches, after tutorials/basics/logistic_regression/main.cpp
#include <torch/torch.h>
#include <iostream>
#include <iomanip>

// keep every gradient element within [-clip_value, clip_value]
static void clip_all(torch::nn::Linear& model, double clip_value) {
    torch::nn::utils::clip_grad_value_(model->parameters(), clip_value);
}

int main() {
    std::cout << "Logistic Regression\n\n";

    auto cuda_available = torch::cuda::is_available();
    torch::Device device(cuda_available ? torch::kCUDA : torch::kCPU);
    std::cout << (cuda_available ? "CUDA available. Training on GPU." : "Training on CPU.") << '\n';

    // Hyper parameters
    const int64_t input_size = 784;
    const int64_t num_classes = 10;
    const int64_t batch_size = 64;
    const size_t accumulation_steps = 4;
    const size_t num_epochs = 5;
    const double learning_rate = 0.001;
    const double clip_value = 0.5;

    const std::string MNIST_data_path = "../../../data/mnist/";

    auto train_dataset = torch::data::datasets::MNIST(MNIST_data_path)
        .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
        .map(torch::data::transforms::Stack<>());
    auto num_train_samples = train_dataset.size().value();

    auto test_dataset = torch::data::datasets::MNIST(MNIST_data_path, torch::data::datasets::MNIST::Mode::kTest)
        .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
        .map(torch::data::transforms::Stack<>());
    auto num_test_samples = test_dataset.size().value();

    auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        std::move(train_dataset), batch_size);
    auto test_loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
        std::move(test_dataset), batch_size);

    torch::nn::Linear model(input_size, num_classes);
    model->to(device);

    torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(learning_rate));

    std::cout << std::fixed << std::setprecision(4);
    std::cout << "Training...\n";

    for (size_t epoch = 0; epoch != num_epochs; ++epoch) {
        double running_loss = 0.0;
        size_t num_correct = 0;
        size_t i = 0;

        for (auto& batch : *train_loader) {
            auto data = batch.data.view({batch.data.size(0), -1}).to(device);
            auto target = batch.target.to(device);

            auto output = model->forward(data);
            auto loss = torch::nn::functional::cross_entropy(output, target);

            running_loss += loss.item<double>() * data.size(0);
            num_correct += output.argmax(1).eq(target).sum().item<int64_t>();

            // Backward pass; the SGD step sees accumulation_steps mini-batches
            auto scaled_loss = loss / static_cast<double>(accumulation_steps);
            scaled_loss.backward();
            clip_all(model, clip_value);
            if (i % accumulation_steps == accumulation_steps - 1) {
                optimizer.step();
                optimizer.zero_grad();
            }
            ++i;
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

    size_t num_correct = 0;
    for (const auto& batch : *test_loader) {
        auto data = batch.data.view({batch.data.size(0), -1}).to(device);
        auto target = batch.target.to(device);
        num_correct += model->forward(data).argmax(1).eq(target).sum().item<int64_t>();
    }

    std::cout << "Testing finished!\n";
    std::cout << "Testset - Accuracy: " << static_cast<double>(num_correct) / num_test_samples << '\n';
}
