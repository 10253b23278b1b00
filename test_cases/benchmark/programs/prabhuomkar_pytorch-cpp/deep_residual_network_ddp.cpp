// Deep residual network on CIFAR-10 trained on several processes,
// after tutorials/intermediate/deep_residual_network/src/main.cpp
#include <torch/torch.h>
#include <c10d/TCPStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include <cstdlib>
#include <iostream>
#include <iomanip>
#include "prabhuomkar_support.hpp"

using resnet::ResNet;
using resnet::ResidualBlock;
using transform::ConstantPad;
using transform::RandomCrop;
using transform::RandomHorizontalFlip;

// in-place mean of every parameter gradient over the processes
template <typename Model>
void average_gradients(Model& model, c10d::ProcessGroupGloo& pg) {
    const int world = pg.getSize();
    for (auto& p : model->parameters()) {
        if (!p.grad().defined()) continue;
        std::vector<torch::Tensor> buffer{p.grad()};
        pg.allreduce(buffer)->wait();
        p.grad().div_(world);
    }
}

int main() {
    const int rank = std::atoi(std::getenv("RANK"));
    const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
    c10d::TCPStoreOptions store_opts;
    store_opts.port = 29501;
    store_opts.isServer = rank == 0;
    store_opts.numWorkers = world_size;
    auto store = c10::make_intrusive<c10d::TCPStore>(std::getenv("MASTER_ADDR"), store_opts);
    auto gloo_opts = c10d::ProcessGroupGloo::Options::create();
    gloo_opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    c10d::ProcessGroupGloo pg(store, rank, world_size, gloo_opts);

    torch::Device device(torch::kCPU);

    const int64_t num_classes = 10;
    const int64_t batch_size = 50;
    const int accumulation_steps = 2;   // 2 x 50 per process
    const size_t num_epochs = 20;
    const double learning_rate = 0.001;
    const size_t learning_rate_decay_frequency = 8;
    const double learning_rate_decay_factor = 1.0 / 3.0;

    auto train_dataset = CIFAR10("../../../../data/cifar10/")
        .map(ConstantPad(4))
        .map(RandomHorizontalFlip())
        .map(RandomCrop({32, 32}))
        .map(torch::data::transforms::Stack<>());
    auto num_train_samples = train_dataset.size().value();
    auto sampler = torch::data::samplers::DistributedRandomSampler(num_train_samples, world_size, rank);
    auto train_loader = torch::data::make_data_loader(std::move(train_dataset), std::move(sampler),
        torch::data::DataLoaderOptions().batch_size(batch_size));

    std::array<int64_t, 3> layers{2, 2, 2};
    ResNet<ResidualBlock> model(layers, num_classes);
    model->to(device);
    {
        torch::NoGradGuard no_grad;
        for (auto& p : model->parameters()) {
            std::vector<torch::Tensor> buffer{p};
            pg.broadcast(buffer)->wait();
        }
    }

    torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(learning_rate));
    auto current_learning_rate = learning_rate;
    std::cout << std::fixed << std::setprecision(4);

    int window = 0;
    optimizer.zero_grad();
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
            window++;
            if (window == accumulation_steps) {
                average_gradients(model, pg);
                torch::nn::utils::clip_grad_norm_(model->parameters(), 5.0);
                optimizer.step();
                optimizer.zero_grad();
                window = 0;
            }
        }

        if ((epoch + 1) % learning_rate_decay_frequency == 0) {
            current_learning_rate *= learning_rate_decay_factor;
            static_cast<torch::optim::AdamOptions&>(optimizer.param_groups().front().options()).lr(current_learning_rate);
        }
        if (rank == 0) {
            std::cout << "Epoch [" << (epoch + 1) << "/" << num_epochs << "], Trainset - Loss: "
                << running_loss / num_seen << ", Accuracy: " << static_cast<double>(num_correct) / num_seen << '\n';
        }
    }
    if (rank == 0) torch::save(model, "resnet.pt");
}
