// 16_Autoencoder/VAE: variational autoencoder on MNIST (784-400-20).
// Loss = summed Bernoulli reconstruction + KL divergence, per image.
// Trained with AdamW over windows of `accum_steps` batches of 100 images;
// the optimizer settings come from a small config struct.
#include <torch/torch.h>

#include <iomanip>
#include <iostream>
#include <string>

struct VAEOutput {
    torch::Tensor reconstruction;
    torch::Tensor mu;
    torch::Tensor log_var;
};

class VAEImpl : public torch::nn::Module {
public:
    VAEImpl(int64_t image_size, int64_t h_dim, int64_t z_dim)
        : fc1(image_size, h_dim), fc2(h_dim, z_dim), fc3(h_dim, z_dim), fc4(z_dim, h_dim), fc5(h_dim, image_size) {
        register_module("fc1", fc1);
        register_module("fc2", fc2);
        register_module("fc3", fc3);
        register_module("fc4", fc4);
        register_module("fc5", fc5);
    }
    std::pair<torch::Tensor, torch::Tensor> encode(torch::Tensor x) {
        auto h = torch::nn::functional::relu(fc1->forward(x));
        return {fc2->forward(h), fc3->forward(h)};
    }
    torch::Tensor reparameterize(torch::Tensor mu, torch::Tensor log_var) {
        if (is_training()) {
            auto std = log_var.div(2).exp_();
            return torch::randn_like(std).mul(std).add_(mu);
        }
        return mu;
    }
    torch::Tensor decode(torch::Tensor z) {
        auto h = torch::nn::functional::relu(fc4->forward(z));
        return torch::sigmoid(fc5->forward(h));
    }
    VAEOutput forward(torch::Tensor x) {
        auto [mu, log_var] = encode(x);
        auto z = reparameterize(mu, log_var);
        return {decode(z), mu, log_var};
    }

private:
    torch::nn::Linear fc1, fc2, fc3, fc4, fc5;
};
TORCH_MODULE(VAE);

struct TrainConfig {
    double learning_rate = 1e-3;
    double weight_decay = 1e-4;
    int64_t accum_steps = 4;
    int64_t batch_size = 100;
    size_t num_epochs = 15;
};

// AdamW options for the accumulated run: the decay is spread over the
// batches of one window.
torch::optim::AdamWOptions make_adamw_options(const TrainConfig& cfg) {
    torch::optim::AdamWOptions options(cfg.learning_rate);
    options.betas({0.9, 0.999});
    options.weight_decay(cfg.weight_decay / cfg.accum_steps);
    return options;
}

void save_image(const torch::Tensor& images, const std::string& path) {
    torch::save(images.detach().cpu(), path + ".pt");
}

int main(int argc, char** argv) {
    std::cout << "Variational Autoencoder\n\n";
    auto cuda_available = torch::cuda::is_available();
    torch::Device device(cuda_available ? torch::kCUDA : torch::kCPU);

    TrainConfig cfg;
    if (argc > 1) cfg.accum_steps = std::stoll(argv[1]);
    const int64_t h_dim = 400, z_dim = 20, image_size = 28 * 28;
    const std::string MNIST_data_path = argc > 2 ? argv[2] : "./data/mnist/";
    const std::string sample_output_dir_path = ".";

    auto dataset = torch::data::datasets::MNIST(MNIST_data_path).map(torch::data::transforms::Stack<>());
    auto num_samples = dataset.size().value();
    auto dataloader =
        torch::data::make_data_loader<torch::data::samplers::RandomSampler>(std::move(dataset), cfg.batch_size);

    VAE model(image_size, h_dim, z_dim);
    model->to(device);
    torch::optim::AdamW optimizer(model->parameters(), make_adamw_options(cfg));

    std::cout << std::fixed << std::setprecision(4) << "Training...\n";
    int64_t micro_step = 0;
    optimizer.zero_grad();
    for (size_t epoch = 0; epoch != cfg.num_epochs; ++epoch) {
        torch::Tensor images;
        size_t batch_index = 0;
        model->train();
        for (auto& batch : *dataloader) {
            images = batch.data.reshape({-1, image_size}).to(device);
            auto output = model->forward(images);

            auto reconstruction_loss = torch::nn::functional::binary_cross_entropy(
                output.reconstruction, images,
                torch::nn::functional::BinaryCrossEntropyFuncOptions().reduction(torch::kSum));
            auto kl_divergence = -0.5 * torch::sum(1 + output.log_var - output.mu.pow(2) - output.log_var.exp());

            auto loss = (reconstruction_loss + kl_divergence) / images.size(0);
            (loss / cfg.accum_steps).backward();

            if (++micro_step % cfg.accum_steps == 0) {
                optimizer.step();
                optimizer.zero_grad();
            }

            if ((batch_index + 1) % 100 == 0) {
                std::cout << "Epoch [" << epoch + 1 << "/" << cfg.num_epochs << "], Step [" << batch_index + 1 << "/"
                          << num_samples / cfg.batch_size
                          << "], Reconstruction loss: " << reconstruction_loss.item<double>() / batch.data.size(0)
                          << ", KL-divergence: " << kl_divergence.item<double>() / batch.data.size(0) << "\n";
            }
            ++batch_index;
        }

        model->eval();
        torch::NoGradGuard no_grad;
        auto z = torch::randn({cfg.batch_size, z_dim}).to(device);
        save_image(model->decode(z).view({-1, 1, 28, 28}), sample_output_dir_path + "/sampled-" + std::to_string(epoch + 1));
        auto output = model->forward(images);
        save_image(torch::cat({images.view({-1, 1, 28, 28}), output.reconstruction.view({-1, 1, 28, 28})}, 3),
                   sample_output_dir_path + "/reconstruction-" + std::to_string(epoch + 1));
    }
    std::cout << "Training finished!\n";
}
