// Variational auto-encoder on MNIST, after tutorials/advanced/variational_autoencoder/src/main.cpp
#include <torch/torch.h>
#include <iostream>
#include <iomanip>
#include "prabhuomkar_support.hpp"

int main() {
    std::cout << "Variational Autoencoder\n\n";

    auto cuda_available = torch::cuda::is_available();
    torch::Device device(cuda_available ? torch::kCUDA : torch::kCPU);
    std::cout << (cuda_available ? "CUDA available. Training on GPU." : "Training on CPU.") << '\n';

    // Hyper parameters
    const int64_t h_dim = 400;
    const int64_t z_dim = 20;
    const int64_t image_size = 28 * 28;
    const int64_t batch_size = 25;
    const int64_t accumulation_steps = 4;  // 4 x 25 = the original batch of 100
    const size_t num_epochs = 15;
    const double learning_rate = 1e-3;

    const std::string MNIST_data_path = "../../../../data/mnist/";
    const std::string sample_output_dir_path = "output/";

    auto dataset = torch::data::datasets::MNIST(MNIST_data_path)
        .map(torch::data::transforms::Stack<>());
    auto num_samples = dataset.size().value();

    auto dataloader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
        std::move(dataset), batch_size);

    VAE model(image_size, h_dim, z_dim);
    model->to(device);

    torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(learning_rate));

    std::cout << std::fixed << std::setprecision(4);
    std::cout << "Training...\n";

    int64_t accumulated = 0;  // batches since the last update, carried over epoch ends

    for (size_t epoch = 0; epoch != num_epochs; ++epoch) {
        torch::Tensor images;
        size_t batch_index = 0;

        model->train();

        for (auto& batch : *dataloader) {
            images = batch.data.reshape({-1, image_size}).to(device);

            auto output = model->forward(images);

            // summed reconstruction error and KL term, turned into a per-image value
            auto reconstruction_loss = torch::nn::functional::binary_cross_entropy(output.reconstruction, images,
                torch::nn::functional::BinaryCrossEntropyFuncOptions().reduction(torch::kSum));
            auto kl_divergence = -0.5 * torch::sum(1 + output.log_var - output.mu.pow(2) - output.log_var.exp());

            auto loss = (reconstruction_loss + kl_divergence) / (batch.data.size(0) * accumulation_steps);
            loss.backward();

            if (++accumulated == accumulation_steps) {
                optimizer.step();
                accumulated = 0;
            }

            if ((batch_index + 1) % 400 == 0) {
                std::cout << "Epoch [" << epoch + 1 << "/" << num_epochs << "], Step [" << batch_index + 1 << "/"
                    << num_samples / batch_size << "], Reconstruction loss: "
                    << reconstruction_loss.item<double>() / batch.data.size(0)
                    << ", KL-divergence: " << kl_divergence.item<double>() / batch.data.size(0)
                    << "\n";
            }
            ++batch_index;
        }

        model->eval();
        torch::NoGradGuard no_grad;

        // decode random codings and save them
        auto z = torch::randn({batch_size, z_dim}).to(device);
        auto images_decoded = model->decode(z).view({-1, 1, 28, 28});
        save_image(images_decoded, sample_output_dir_path + "sampled-" + std::to_string(epoch + 1) + ".png");

        // target | reconstruction pairs of the last batch
        auto output = model->forward(images);
        auto images_concatenated = torch::cat({images.view({-1, 1, 28, 28}),
            output.reconstruction.view({-1, 1, 28, 28})}, 3);
        save_image(images_concatenated, sample_output_dir_path + "reconstruction-"
            + std::to_string(epoch + 1) + ".png");
    }

    std::cout << "Training finished!\n";
}
