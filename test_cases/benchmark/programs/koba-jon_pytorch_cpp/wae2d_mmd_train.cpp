// Wasserstein auto-encoder (MMD penalty) trainer with autocast, after Generative_Modeling/WAE2d_MMD/src/train.cpp
#include <ATen/autocast_mode.h>
#include <iostream>
#include <fstream>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>
#include <utility>
#include <torch/torch.h>
#include "koba_support.hpp"

namespace fs = std::filesystem;

struct WAEImpl : torch::nn::Module {
    WAEImpl(size_t nc, size_t nz) {
        enc = register_module("enc", torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(nc, 32, 4).stride(2).padding(1)), torch::nn::ReLU(),
                                                           torch::nn::AdaptiveAvgPool2d(1), torch::nn::Flatten(), torch::nn::Linear(32, nz)));
        dec = register_module("dec", torch::nn::Sequential(torch::nn::Linear(nz, nc * 64 * 64), torch::nn::Tanh()));
        this->nc = nc;
    }
    std::tuple<torch::Tensor, torch::Tensor> forward(torch::Tensor x) {
        auto z = enc->forward(x);
        return {dec->forward(z).view({x.size(0), (long int)nc, 64, 64}), z};
    }
    size_t nc;
    torch::nn::Sequential enc{nullptr}, dec{nullptr};
};
TORCH_MODULE(WAE);

// inverse multiquadratic kernel MMD between encoded and prior samples
static torch::Tensor mmd(const torch::Tensor &z, const torch::Tensor &z_prior) {
    const double C = 2.0 * z.size(1);
    auto k = [&](const torch::Tensor &a, const torch::Tensor &b) { return (C / (C + torch::cdist(a, b).pow(2))); };
    const double n = (double)z.size(0);
    auto kzz = k(z, z), kpp = k(z_prior, z_prior), kzp = k(z, z_prior);
    return (kzz.sum() - kzz.diagonal().sum() + kpp.sum() - kpp.diagonal().sum()) / (n * (n - 1)) - 2.0 * kzp.mean();
}

void train(po::variables_map &vm, torch::Device &device, WAE &model, std::vector<transforms_Compose> &transform) {

    size_t epoch, total_iter, start_epoch, total_epoch;
    std::string date, checkpoint_dir, path, dataroot;
    std::ofstream ofs;
    std::tuple<torch::Tensor, std::vector<std::string>> mini_batch;
    torch::Tensor loss, rec, reg, image, output, z;
    datasets::ImageFolderWithPaths dataset;
    DataLoader::ImageFolderWithPaths dataloader;
    visualizer::graph train_loss;
    progress::display *show_progress;

    dataroot = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_dir"].as<std::string>();
    dataset = datasets::ImageFolderWithPaths(dataroot, transform);
    dataloader = DataLoader::ImageFolderWithPaths(dataset, vm["batch_size"].as<size_t>(), true, 4);
    std::cout << "total training images : " << dataset.size() << std::endl;

    // weights stay in float32; only the forward pass runs in half precision on the GPU
    const bool amp = vm["amp"].as<bool>() && device.is_cuda();
    auto optimizer = torch::optim::Adam(model->parameters(), torch::optim::AdamOptions(vm["lr"].as<float>()).betas({vm["beta1"].as<float>(), vm["beta2"].as<float>()}));
    const size_t accum = vm["accum"].as<size_t>();
    const float Lambda = vm["Lambda"].as<float>();

    checkpoint_dir = "checkpoints/" + vm["dataset"].as<std::string>();
    path = checkpoint_dir + "/models";  fs::create_directories(path);
    path = checkpoint_dir + "/optims";  fs::create_directories(path);
    path = checkpoint_dir + "/log";  fs::create_directories(path);
    train_loss = visualizer::graph(checkpoint_dir + "/graph", "train_loss", {"Reconstruct", "MMD"});

    if (vm["train_load_epoch"].as<std::string>() == "") {
        model->apply(weights_init);
        ofs.open(checkpoint_dir + "/log/train.txt", std::ios::out);
        start_epoch = 0;
    } else {
        path = checkpoint_dir + "/models/epoch_" + vm["train_load_epoch"].as<std::string>() + ".pth";  torch::load(model, path, device);
        path = checkpoint_dir + "/optims/epoch_" + vm["train_load_epoch"].as<std::string>() + ".pth";  torch::load(optimizer, path, device);
        ofs.open(checkpoint_dir + "/log/train.txt", std::ios::app);
        start_epoch = std::stoi(vm["train_load_epoch"].as<std::string>());
    }

    date = progress::separator_center("Train Loss (" + progress::current_date() + ")");
    std::cout << date << std::endl;
    ofs << date << std::endl;

    start_epoch++;
    total_iter = dataloader.get_count_max();
    total_epoch = vm["epochs"].as<size_t>();
    size_t micro = 0;
    optimizer.zero_grad();

    for (epoch = start_epoch; epoch <= total_epoch; epoch++) {

        model->train();
        ofs << std::endl << "epoch:" << epoch << '/' << total_epoch << std::endl;
        show_progress = new progress::display(total_iter, {epoch, total_epoch}, {"rec", "mmd"});

        while (dataloader(mini_batch)) {

            image = std::get<0>(mini_batch).to(device);
            if (amp) {
                at::autocast::set_enabled(true);
                at::autocast::set_autocast_gpu_dtype(at::kHalf);
                at::autocast::increment_nesting();
            }
            std::tie(output, z) = model->forward(image);
            if (amp) {
                at::autocast::decrement_nesting();
                at::autocast::set_enabled(false);
                at::autocast::clear_cache();
            }
            rec = torch::nn::functional::mse_loss(output.to(torch::kFloat), image);
            reg = mmd(z.to(torch::kFloat), torch::randn_like(z, torch::kFloat)) * Lambda;
            loss = rec + reg;
            (loss / (float)accum).backward();

            if (++micro % accum == 0) {
                optimizer.step();
                optimizer.zero_grad();
            }

            show_progress->increment({rec.item<float>(), reg.item<float>()});
            ofs << "iters:" << show_progress->get_iters() << '/' << total_iter << ' ' << "rec:" << rec.item<float>() << " mmd:" << reg.item<float>() << std::endl;
        }

        train_loss.plot(epoch, show_progress->get_ave());
        delete show_progress;

        if (epoch % vm["save_epoch"].as<size_t>() == 0) {
            path = checkpoint_dir + "/models/epoch_" + std::to_string(epoch) + ".pth";  torch::save(model, path);
            path = checkpoint_dir + "/optims/epoch_" + std::to_string(epoch) + ".pth";  torch::save(optimizer, path);
        }
        path = checkpoint_dir + "/models/epoch_latest.pth";  torch::save(model, path);
        path = checkpoint_dir + "/optims/epoch_latest.pth";  torch::save(optimizer, path);
    }

    ofs.close();
}
