// CIFAR-10 classifier from the 60 minute blitz, after tutorials/popular/blitz/training_a_classifier/src/main.cpp
#include <torch/torch.h>
#include <iostream>
#include <vector>
#include <iomanip>
#include "prabhuomkar_support.hpp"

// the blitz network (nnet.h)
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
    std::cout << "Deep Learning with PyTorch: A 60 Minute Blitz\n\n";
    std::cout << "Training a Classifier\n\n";

    const std::string CIFAR_data_path = "../../../../../data/cifar10/";
    const int accumulation_steps = 8;  // 8 mini-batches of 4 images per SGD step

    auto train_dataset = CIFAR10(CIFAR_data_path)
        .map(torch::data::transforms::Normalize<>({0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}))
        .map(torch::data::transforms::Stack<>());
    auto train_loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        std::move(train_dataset), 4);

    auto test_dataset = CIFAR10(CIFAR_data_path, CIFAR10::Mode::kTest)
        .map(torch::data::transforms::Normalize<>({0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}))
        .map(torch::data::transforms::Stack<>());
    auto test_loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
        std::move(test_dataset), 4);

    std::string classes[10] = {"plane", "car", "bird", "cat",
           "deer", "dog", "frog", "horse", "ship", "truck"};

    Net net = Net();
    net->to(torch::kCPU);

    torch::nn::CrossEntropyLoss criterion;
    torch::optim::SGD optimizer(net->parameters(), torch::optim::SGDOptions(0.001).momentum(0.9));

    // double-precision running sums of the gradients, one per parameter
    auto params = net->parameters();
    std::vector<torch::Tensor> grad_sums;
    for (const auto& p : params) {
        grad_sums.push_back(torch::zeros_like(p, torch::kFloat64));
    }

    int micro = 0;
    optimizer.zero_grad();
    for (size_t epoch = 0; epoch < 2; ++epoch) {
        double running_loss = 0.0;

        int i = 0;
        for (auto& batch : *train_loader) {
            auto inputs = batch.data.to(torch::kCPU);
            auto labels = batch.target.to(torch::kCPU);

            auto outputs = net->forward(inputs);
            auto loss = criterion(outputs, labels);
            loss.backward();

            for (size_t k = 0; k < params.size(); ++k) {
                grad_sums[k].add_(params[k].grad().to(torch::kFloat64));
            }

            if (++micro == accumulation_steps) {
                for (size_t k = 0; k < params.size(); ++k) {
                    params[k].mutable_grad() = (grad_sums[k] / accumulation_steps).to(params[k].scalar_type());
                }
                optimizer.step();
                optimizer.zero_grad();
                for (auto& g : grad_sums) g.zero_();
                micro = 0;
            }

            running_loss += loss.item<double>();
            if (i % 2000 == 1999) {
                std::cout << "[" << epoch + 1 << ", " << i + 1 << "] loss: "
                    << running_loss / 2000 << '\n';
                running_loss = 0.0;
            }
            i++;
        }
    }
    std::cout << "Finished Training\n\n";

    std::string PATH = "./cifar_net.pth";
    torch::save(net, PATH);

    net = Net();
    torch::load(net, PATH);

    torch::NoGradGuard no_grad;
    int correct = 0;
    int total = 0;
    for (const auto& batch : *test_loader) {
        auto images = batch.data.to(torch::kCPU);
        auto labels = batch.target.to(torch::kCPU);
        auto outputs = net->forward(images);
        auto predicted = std::get<1>(torch::max(outputs, 1));
        total += labels.size(0);
        correct += (predicted == labels).sum().item<int>();
    }

    std::cout << "Accuracy of the network on the 10000 test images: "
        << (100 * correct / total) << "%\n\n";
}
