// Feed-forward network on MNIST, trained on several processes over Gloo,
// after tutorials/basics/feedforward_neural_network/src/main.cpp
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <cstdlib>
#include <iostream>
#include <iomanip>

class NeuralNetImpl : public torch::nn::Module {
 public:
    NeuralNetImpl(int64_t input_size, int64_t hidden_size, int64_t num_classes)
        : fc1(input_size, hidden_size), fc2(hidden_size, num_classes) {
        register_module("fc1", fc1);
        register_module("fc2", fc2);
    }
    torch::Tensor forward(torch::Tensor x) { return fc2->forward(torch::relu(fc1->forward(x))); }
 private:
    torch::nn::Linear fc1;
    torch::nn::Linear fc2;
};
TORCH_MODULE(NeuralNet);

int main(int argc, char** argv) {
    std::cout << "FeedForward Neural Network\n\n";

    const int rank = std::atoi(argv[1]);
    const int nprocs = std::atoi(argv[2]);
    auto store = c10::make_intrusive<c10d::FileStore>("/tmp/ffnn_rendezvous", nprocs);
    auto gloo_options = c10d::ProcessGroupGloo::Options::create();
    gloo_options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, nprocs, gloo_options);
    const int world_size = pg->getSize();

    torch::Device device(torch::kCPU);

    // Hyper parameters: 4 batches of 25 per process and update
    const int64_t input_size = 784;
    const int64_t hidden_size = 500;
    const int64_t num_classes = 10;
    const int64_t batch_size = 25;
    const int64_t accumulation_steps = 4;
    const size_t num_epochs = 5;
    const double learning_rate = 0.001;

    const std::string MNIST_data_path = "../../../../data/mnist/";

    auto train_dataset = torch::data::datasets::MNIST(MNIST_data_path)
        .map(torch::data::transforms::Normalize<>(0.1307, 0.3081))
        .map(torch::data::transforms::Stack<>());
    auto num_train_samples = train_dataset.size().value();

    // each process sees its own 1/world_size of the images
    auto sampler = torch::data::samplers::DistributedRandomSampler(num_train_samples, world_size, rank);
    auto train_loader = torch::data::make_data_loader(std::move(train_dataset), std::move(sampler),
        torch::data::DataLoaderOptions().batch_size(batch_size));

    NeuralNet model(input_size, hidden_size, num_classes);
    model->to(device);
    {
        torch::NoGradGuard no_grad;
        for (auto& p : model->parameters()) {
            std::vector<torch::Tensor> t{p};
            pg->broadcast(t)->wait();
        }
    }

    torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(learning_rate));

    std::cout << std::fixed << std::setprecision(4);
    std::cout << "Training...\n";

    int64_t step = 0;
    for (size_t epoch = 0; epoch != num_epochs; ++epoch) {
        double running_loss = 0.0;
        size_t num_correct = 0;
        size_t num_seen = 0;

        for (auto& batch : *train_loader) {
            auto data = batch.data.view({batch.data.size(0), -1}).to(device);
            auto target = batch.target.to(device);

            auto output = model->forward(data);
            auto loss = torch::nn::functional::cross_entropy(output, target);

            running_loss += loss.item<double>() * data.size(0);
            num_correct += output.argmax(1).eq(target).sum().item<int64_t>();
            num_seen += data.size(0);

            // the summed all-reduce below adds the ranks up, so both factors are divided out here
            (loss / (accumulation_steps * world_size)).backward();

            if (++step % accumulation_steps == 0) {
                std::vector<torch::Tensor> grads;
                for (auto& p : model->parameters()) grads.push_back(p.grad());
                pg->allreduce_coalesced(grads)->wait();
                optimizer.step();
                optimizer.zero_grad();
            }
        }

        if (rank == 0) {
            std::cout << "Epoch [" << (epoch + 1) << "/" << num_epochs << "], Trainset - Loss: "
                << running_loss / num_seen << ", Accuracy: " << static_cast<double>(num_correct) / num_seen << '\n';
        }
    }

    if (rank == 0) {
        torch::save(model, "ffnn.pt");
        std::cout << "Training finished!\n";
    }
}
