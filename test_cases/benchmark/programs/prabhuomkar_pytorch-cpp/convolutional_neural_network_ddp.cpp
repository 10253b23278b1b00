// Convolutional neural network on Imagenette, data-parallel over Gloo,
// after tutorials/intermediate/convolutional_neural_network/src/main.cpp
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <cstdlib>
#include <iostream>
#include <iomanip>
#include "prabhuomkar_support.hpp"

using dataset::ImageFolderDataset;

// thin wrapper around a Gloo process group
class Communicator {
 public:
    Communicator(int rank, int size, const std::string& rendezvous_file) : rank_(rank), size_(size) {
        auto store = c10::make_intrusive<c10d::FileStore>(rendezvous_file, size);
        auto options = c10d::ProcessGroupGloo::Options::create();
        options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
        pg_ = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, size, options);
    }
    // mean over ranks, in place
    void all_reduce_mean(std::vector<torch::Tensor>& tensors) {
        for (auto& t : tensors) {
            std::vector<torch::Tensor> one{t};
            pg_->allreduce(one)->wait();
            t.div_(size_);
        }
    }
    void broadcast(std::vector<torch::Tensor>& tensors) {
        for (auto& t : tensors) {
            std::vector<torch::Tensor> one{t};
            pg_->broadcast(one)->wait();
        }
    }
    int rank() const { return rank_; }
    int size() const { return size_; }
 private:
    int rank_, size_;
    c10::intrusive_ptr<c10d::ProcessGroupGloo> pg_;
};

int main(int argc, char** argv) {
    Communicator comm(std::atoi(argv[1]), std::atoi(argv[2]), "/tmp/cnn_rendezvous");
    torch::Device device(torch::kCPU);

    const int64_t num_classes = 10;
    const int64_t batch_size = 8;
    const int accumulation_steps = 4;
    const size_t num_epochs = 10;
    const double learning_rate = 1e-3;
    const double weight_decay = 1e-3;

    const std::string imagenette_data_path = "../../../../data/imagenette2-160";
    auto train_dataset = ImageFolderDataset(imagenette_data_path, ImageFolderDataset::Mode::TRAIN, {160, 160})
        .map(torch::data::transforms::Normalize<>({0.485, 0.456, 0.406}, {0.229, 0.224, 0.225}))
        .map(torch::data::transforms::Stack<>());
    auto num_train_samples = train_dataset.size().value();
    auto sampler = torch::data::samplers::DistributedRandomSampler(num_train_samples, comm.size(), comm.rank());
    auto train_loader = torch::data::make_data_loader(std::move(train_dataset), std::move(sampler),
        torch::data::DataLoaderOptions().batch_size(batch_size));

    ConvNet model(num_classes);
    model->to(device);
    {
        torch::NoGradGuard no_grad;
        std::vector<torch::Tensor> weights = model->parameters();
        comm.broadcast(weights);
    }

    torch::optim::Adam optimizer(
        model->parameters(), torch::optim::AdamOptions(learning_rate).weight_decay(weight_decay));

    std::cout << std::fixed << std::setprecision(4);
    int micro = 0;
    for (size_t epoch = 0; epoch != num_epochs; ++epoch) {
        double running_loss = 0.0;
        size_t num_correct = 0, num_seen = 0;

        for (auto& batch : *train_loader) {
            auto data = batch.data.to(device);
            auto target = batch.target.to(device);
            auto output = model->forward(data);
            auto loss = torch::nn::functional::cross_entropy(output, target);
            running_loss += loss.item<double>() * data.size(0);
            num_correct += output.argmax(1).eq(target).sum().item<int64_t>();
            num_seen += data.size(0);

            (loss / accumulation_steps).backward();
            std::vector<torch::Tensor> grads;
            for (auto& p : model->parameters()) grads.push_back(p.grad());
            comm.all_reduce_mean(grads);

            if (++micro == accumulation_steps) {
                optimizer.step();
                optimizer.zero_grad();
                micro = 0;
            }
        }

        if (comm.rank() == 0) {
            std::cout << "Epoch [" << (epoch + 1) << "/" << num_epochs << "], Trainset - Loss: "
                << running_loss / num_seen << ", Accuracy: " << static_cast<double>(num_correct) / num_seen << '\n';
        }
    }
    if (comm.rank() == 0) torch::save(model, "convnet.pt");
}
