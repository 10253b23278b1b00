// CIFAR-10 classifier from the 60 minute blitz with double-precision gradient sums,
// after tutorials/popular/blitz/training_a_classifier/src/main.cpp
#include <torch/torch.h>
#include <iostream>
#include <vector>
#include <iomanip>
#include "prabhuomkar_support.hpp"

class NetImpl : public torch::nn::Module {
 public:
    NetImpl()
        : conv1(torch::nn::Conv2dOptions(3, 6, 5)), pool(torch::nn::MaxPool2dOptions(2)),
          conv2(torch::nn::Conv2dOptions(6, 16, 5)), fc1(16 * 5 * 5, 120), fc2(120, 84), fc3(84, 10) {
        register_module("conv1", conv1);
        register_module("conv2", conv2);
        register_module("fc1", fc1);
        register_module("fc2", fc2);
        register_module("fc3", fc3);
    }
    torch::Tensor forward(torch::Tensor x) {
        x = pool->forward(torch::relu(conv1->forward(x)));
        x = pool->forward(torch::relu(conv2->forward(x)));
        x = x.view({-1, 16 * 5 * 5});
        x = torch::relu(fc1->forward(x));
        x = torch::relu(fc2->forward(x));
        return fc3->forward(x);
    }
 private:
    torch::nn::Conv2d conv1;
    torch::nn::MaxPool2d pool;
    torch::nn::Conv2d conv2;
    torch::nn::Linear fc1, fc2, fc3;
};
TORCH_MODULE(Net);

int main() {
    std::cout << "Training a Classifier\n\n";

    const std::string CIFAR_data_path = "../../../../../data/cifar10/";
    const int accumulation_steps = 16;

    auto train_dataset = CIFAR10(CIFAR_data_path)
        .map(torch::data::transforms::Normalize<>({0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}))
        .map(torch::data::transforms::Stack<>());
    auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        std::move(train_dataset), 4);

    Net net = Net();
    torch::nn::CrossEntropyLoss criterion;
    torch::optim::SGD optimizer(net->parameters(), torch::optim::SGDOptions(0.001).momentum(0.9));

    auto params = net->parameters();
    std::vector<torch::Tensor> acc;
    for (const auto& p : params) acc.push_back(torch::zeros_like(p, torch::kFloat64));

    int in_acc = 0;
    for (size_t epoch = 0; epoch < 2; ++epoch) {
        double running_loss = 0.0;
        int i = 0;
        for (auto& batch : *train_loader) {
            auto outputs = net->forward(batch.data);
            auto loss = criterion(outputs, batch.target);
            loss.backward();

            // move this mini-batch's gradient into the double sums and clear .grad for the next one
            {
                torch::NoGradGuard no_grad;
                for (size_t k = 0; k < params.size(); ++k) {
                    acc[k] += params[k].grad().to(torch::kFloat64);
                }
            }
            optimizer.zero_grad();

            if (++in_acc == accumulation_steps) {
                for (size_t k = 0; k < params.size(); ++k) {
                    params[k].mutable_grad() = (acc[k] / accumulation_steps).to(torch::kFloat32);
                    acc[k].zero_();
                }
                optimizer.step();
                optimizer.zero_grad();
                in_acc = 0;
            }

            running_loss += loss.item<double>();
            if (i % 2000 == 1999) {
                std::cout << "[" << epoch + 1 << ", " << i + 1 << "] loss: " << running_loss / 2000 << '\n';
                running_loss = 0.0;
            }
            i++;
        }
    }
    std::cout << "Finished Training\n\n";
    torch::save(net, "./cifar_net.pth");
}
