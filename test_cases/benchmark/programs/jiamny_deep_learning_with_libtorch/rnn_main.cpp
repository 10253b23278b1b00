// 18_RecurrentNeuralNetwork/RNN: 2-layer LSTM classifying MNIST digits read
// row by row. Optional StepLR decay (per optimizer update) and an update every
// `accum` batches: the batches still owed to the current update are counted
// down in `pending`, and the last, shorter update of an epoch is averaged
// over what it actually contains.
#include <torch/torch.h>

#include <iomanip>
#include <iostream>
#include <memory>
#include <string>

using torch::indexing::Slice;

class RNNImpl : public torch::nn::Module {
public:
    RNNImpl(int64_t input_size, int64_t hidden_size, int64_t num_layers, int64_t num_classes)
        : lstm(torch::nn::LSTMOptions(input_size, hidden_size).num_layers(num_layers).batch_first(true)),
          fc(hidden_size, num_classes) {
        register_module("lstm", lstm);
        register_module("fc", fc);
    }
    torch::Tensor forward(torch::Tensor x) {
        auto out = std::get<0>(lstm->forward(x)).index({Slice(), -1});
        return fc->forward(out);
    }

private:
    torch::nn::LSTM lstm;
    torch::nn::Linear fc;
};
TORCH_MODULE(RNN);

int main(int argc, char** argv) {
    std::cout << "Recurrent Neural Network\n\n";
    auto cuda_available = torch::cuda::is_available();
    torch::Device device(cuda_available ? torch::kCUDA : torch::kCPU);

    const int64_t sequence_length = 28, input_size = 28, hidden_size = 128, num_layers = 2, num_classes = 10;
    const int64_t batch_size = 100;
    const size_t num_epochs = 20;
    const double learning_rate = 0.01;
    const int64_t accum = argc > 1 ? std::stoll(argv[1]) : 3;
    const bool use_decay = argc > 2 && std::string(argv[2]) == "--decay";
    const std::string MNIST_data_path = "./data/mnist/";

    auto train_dataset = torch::data::datasets::MNIST(MNIST_data_path)
                             .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                             .map(torch::data::transforms::Stack<>());
    auto num_train_samples = train_dataset.size().value();
    auto train_loader =
        torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(train_dataset), batch_size);

    RNN model(input_size, hidden_size, num_layers, num_classes);
    model->to(device);
    torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(learning_rate));
    std::unique_ptr<torch::optim::StepLR> scheduler;
    if (use_decay) scheduler = std::make_unique<torch::optim::StepLR>(optimizer, /*step_size=*/500, /*gamma=*/0.5);

    // Average the gradients summed since the last update and apply them.
    auto apply_update = [&](int64_t gathered) {
        for (auto& p : model->parameters()) {
            if (p.grad().defined()) p.grad().div_(static_cast<double>(gathered));
        }
        optimizer.step();
        if (scheduler) scheduler->step();
        optimizer.zero_grad();
    };

    std::cout << std::fixed << std::setprecision(4) << "Training...\n";
    for (size_t epoch = 0; epoch != num_epochs; ++epoch) {
        double running_loss = 0.0;
        size_t num_correct = 0;
        int64_t pending = accum;

        optimizer.zero_grad();
        auto it = train_loader->begin();
        while (it != train_loader->end()) {
            auto& batch = *it;
            auto data = batch.data.view({-1, sequence_length, input_size}).to(device);
            auto target = batch.target.to(device);
            auto output = model->forward(data);
            auto loss = torch::nn::functional::cross_entropy(output, target);
            running_loss += loss.item<double>() * data.size(0);
            num_correct += output.argmax(1).eq(target).sum().item<int64_t>();

            // Backward pass; the update averages the window's gradients
            loss.backward();
            if (--pending == 0) {
                apply_update(accum);
                pending = accum;
            }
            ++it;
        }
        if (pending != accum) apply_update(accum - pending);

        std::cout << "Epoch [" << (epoch + 1) << "/" << num_epochs
                  << "], Trainset - Loss: " << running_loss / num_train_samples
                  << ", Accuracy: " << static_cast<double>(num_correct) / num_train_samples << '\n';
    }
    std::cout << "Training finished!\n";
}
