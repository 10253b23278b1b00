// LeNet-style network from the 60 minute blitz ("Neural Networks"), trained with a hand-written SGD update,
// after tutorials/popular/blitz/neural_networks/src/main.cpp
#include <torch/torch.h>
#include <iostream>
#include <iomanip>

class NetImpl : public torch::nn::Module {
 public:
    NetImpl()
        : conv1(torch::nn::Conv2dOptions(1, 6, 3)), conv2(torch::nn::Conv2dOptions(6, 16, 3)),
          fc1(16 * 6 * 6, 120), fc2(120, 84), fc3(84, 10) {
        register_module("conv1", conv1);
        register_module("conv2", conv2);
        register_module("fc1", fc1);
        register_module("fc2", fc2);
        register_module("fc3", fc3);
    }
    torch::Tensor forward(torch::Tensor x) {
        x = torch::max_pool2d(torch::relu(conv1->forward(x)), {2, 2});
        x = torch::max_pool2d(torch::relu(conv2->forward(x)), 2);
        x = x.view({-1, num_flat_features(x)});
        x = torch::relu(fc1->forward(x));
        x = torch::relu(fc2->forward(x));
        return fc3->forward(x);
    }
    torch::nn::Conv2d conv1, conv2;
 private:
    int64_t num_flat_features(torch::Tensor x) {
        int64_t num_features = 1;
        for (auto s : x.sizes().slice(1)) num_features *= s;
        return num_features;
    }
    torch::nn::Linear fc1, fc2, fc3;
};
TORCH_MODULE(Net);

int main() {
    std::cout << "Deep Learning with PyTorch: A 60 Minute Blitz\n\n";
    std::cout << "Neural Networks\n\n";

    Net net = Net();
    net->to(torch::kCPU);
    std::cout << net << "\n\n";

    torch::nn::MSELoss criterion;
    const double learning_rate = 0.01;
    const int micro_batches = 4;        // gradients of 4 inputs per weight update
    const int num_updates = 16;
    const int iterations = num_updates * micro_batches;

    // a fixed regression problem: random inputs with random targets
    auto inputs = torch::randn({iterations, 1, 1, 32, 32});
    auto targets = torch::randn({iterations, 1, 10});

    net->zero_grad();
    std::cout << std::fixed << std::setprecision(4);
    for (int it = 0; it < iterations; ++it) {
        auto output = net->forward(inputs[it]);
        auto loss = criterion(output, targets[it]);
        loss.backward();

        if ((it + 1) % micro_batches == 0) {
            // weight = weight - learning_rate * mean gradient of the window
            torch::NoGradGuard no_grad;
            for (auto& f : net->parameters()) {
                f.sub_(f.grad() * (learning_rate / micro_batches));
            }
            net->zero_grad();
            std::cout << "update " << (it + 1) / micro_batches << "/" << num_updates
                      << "  loss " << loss.item<double>() << '\n';
        }
    }

    std::cout << "conv1.bias after training:\n" << net->conv1->bias << "\n";
}
