// 18_RecurrentNeuralNetwork/bi_RNN: bidirectional LSTM classifying MNIST
// digits read row by row (28 steps of 28 pixels). Several batches of 100
// images are combined per Adam update; `should_step` decides when.
#include <torch/torch.h>

#include <iomanip>
#include <iostream>
#include <string>

class BiRNNImpl : public torch::nn::Module {
public:
    BiRNNImpl(int64_t input_size, int64_t hidden_size, int64_t num_layers, int64_t num_classes)
        : lstm(torch::nn::LSTMOptions(input_size, hidden_size).num_layers(num_layers).batch_first(true).bidirectional(true)),
          fc(hidden_size * 2, num_classes) {
        register_module("lstm", lstm);
        register_module("fc", fc);
    }
    torch::Tensor forward(torch::Tensor x) {
        auto out = std::get<0>(lstm->forward(x));
        // last time step, both directions
        return fc->forward(out.select(1, -1));
    }

private:
    torch::nn::LSTM lstm;
    torch::nn::Linear fc;
};
TORCH_MODULE(BiRNN);

// Update after every `accum` batches and after the last batch of the epoch.
static bool should_step(size_t batch_index, size_t accum, size_t num_batches) {
    return (batch_index + 1) % accum == 0 || batch_index + 1 == num_batches;
}

int main(int argc, char** argv) {
    std::cout << "Bidirectional Recurrent Neural Network\n\n";
    auto cuda_available = torch::cuda::is_available();
    torch::Device device(cuda_available ? torch::kCUDA : torch::kCPU);

    const int64_t sequence_length = 28, input_size = 28, hidden_size = 128, num_layers = 2, num_classes = 10;
    const int64_t batch_size = 100;
    const size_t num_epochs = 20;
    const double learning_rate = 0.003;
    const size_t accum = argc > 1 ? std::stoul(argv[1]) : 4;
    const std::string MNIST_data_path = argc > 2 ? argv[2] : "./data/mnist/";

    auto train_dataset = torch::data::datasets::MNIST(MNIST_data_path)
                             .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
                             .map(torch::data::transforms::Stack<>());
    auto num_train_samples = train_dataset.size().value();
    const size_t num_batches = (num_train_samples + batch_size - 1) / batch_size;
    auto train_loader =
        torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(train_dataset), batch_size);

    BiRNN model(input_size, hidden_size, num_layers, num_classes);
    model->to(device);
    torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(learning_rate));

    std::cout << std::fixed << std::setprecision(4) << "Training...\n";
    for (size_t epoch = 0; epoch != num_epochs; ++epoch) {
        double running_loss = 0.0;
        size_t num_correct = 0;
        size_t batch_index = 0;

        // start the epoch from clean gradients
        optimizer.zero_grad();
        for (auto& batch : *train_loader) {
            auto data = batch.data.view({-1, sequence_length, input_size}).to(device);
            auto target = batch.target.to(device);
            auto output = model->forward(data);
            auto loss = torch::nn::functional::cross_entropy(output, target);
            running_loss += loss.item<double>() * data.size(0);
            num_correct += output.argmax(1).eq(target).sum().item<int64_t>();

            // Backward pass and optimize
            (loss / static_cast<double>(accum)).backward();
            if (should_step(batch_index, accum, num_batches)) {
                optimizer.step();
            }
            ++batch_index;
        }

        std::cout << "Epoch [" << (epoch + 1) << "/" << num_epochs
                  << "], Trainset - Loss: " << running_loss / num_train_samples
                  << ", Accuracy: " << static_cast<double>(num_correct) / num_train_samples << '\n';
    }
    torch::save(model, "birnn.pt");
    std::cout << "Training finished!\n";
}
