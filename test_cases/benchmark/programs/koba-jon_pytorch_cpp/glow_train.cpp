// Glow normalizing-flow trainer, after Generative_Modeling/Glow/src/train.cpp
#include <cmath>
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

// one affine-coupling step stand-in; returns (z, log|det J|)
struct GlowImpl : torch::nn::Module {
    explicit GlowImpl(size_t nc) : half(nc / 2 > 0 ? nc / 2 : 1) {
        coupling = register_module("coupling", torch::nn::Conv2d(torch::nn::Conv2dOptions(half, 2 * ((long int)nc - half), 3).padding(1)));
    }
    std::tuple<torch::Tensor, torch::Tensor> forward(torch::Tensor x) {
        auto xa = x.slice(1, 0, half), xb = x.slice(1, half);
        auto h = coupling->forward(xa);
        auto log_s = torch::tanh(h.slice(1, 0, xb.size(1)));
        auto t = h.slice(1, xb.size(1));
        auto zb = xb * torch::exp(log_s) + t;
        return {torch::cat({xa, zb}, 1), log_s.flatten(1).sum(1)};
    }
    long int half;
    torch::nn::Conv2d coupling{nullptr};
};
TORCH_MODULE(Glow);

// negative log-likelihood in bits per dimension
class Loss {
public:
    torch::Tensor operator()(torch::Tensor &z, torch::Tensor &logdet) {
        const double D = (double)z[0].numel();
        auto log_pz = (-0.5 * (z.pow(2) + std::log(2.0 * M_PI))).flatten(1).sum(1);
        return (-(log_pz + logdet) / (D * std::log(2.0))).mean();
    }
};

void train(po::variables_map &vm, torch::Device &device, Glow &model, std::vector<transforms_Compose> &transform) {

    size_t epoch, total_iter, start_epoch, total_epoch;
    std::string date, checkpoint_dir, path, dataroot;
    std::ofstream ofs;
    std::tuple<torch::Tensor, std::vector<std::string>> mini_batch;
    torch::Tensor loss, image, z, logdet;
    datasets::ImageFolderWithPaths dataset;
    DataLoader::ImageFolderWithPaths dataloader;
    visualizer::graph train_loss;
    progress::display *show_progress;

    dataroot = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_dir"].as<std::string>();
    dataset = datasets::ImageFolderWithPaths(dataroot, transform);
    dataloader = DataLoader::ImageFolderWithPaths(dataset, vm["batch_size"].as<size_t>(), true, 4);
    std::cout << "total training images : " << dataset.size() << std::endl;

    auto optimizer = torch::optim::Adam(model->parameters(), torch::optim::AdamOptions(vm["lr"].as<float>()).betas({vm["beta1"].as<float>(), vm["beta2"].as<float>()}));
    auto criterion = Loss();
    const size_t accum = vm["accum"].as<size_t>();
    const double inv_accum = 1.0 / (double)accum;
    const float max_grad_value = vm["max_grad_value"].as<float>();
    auto params = model->parameters();

    checkpoint_dir = "checkpoints/" + vm["dataset"].as<std::string>();
    path = checkpoint_dir + "/models";  fs::create_directories(path);
    path = checkpoint_dir + "/optims";  fs::create_directories(path);
    path = checkpoint_dir + "/log";  fs::create_directories(path);
    train_loss = visualizer::graph(checkpoint_dir + "/graph", "train_loss", {"NLL (bits/dim)"});

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
    size_t seen = 0;  // mini-batches since the start, never reset

    for (epoch = start_epoch; epoch <= total_epoch; epoch++) {

        model->train();
        ofs << std::endl << "epoch:" << epoch << '/' << total_epoch << std::endl;
        show_progress = new progress::display(total_iter, {epoch, total_epoch}, {"bpd"});

        while (dataloader(mini_batch)) {

            image = std::get<0>(mini_batch).to(device);
            image = image + torch::rand_like(image) / 256.0;  // dequantisation noise
            std::tie(z, logdet) = model->forward(image);
            loss = criterion(z, logdet);
            loss.mul(inv_accum).backward();
            seen++;

            if (seen % accum == 0) {
                torch::nn::utils::clip_grad_value_(params, max_grad_value);
                optimizer.step();
                for (auto &p : params) {
                    p.mutable_grad() = torch::Tensor();
                }
            }

            show_progress->increment({loss.item<float>()});
            ofs << "iters:" << show_progress->get_iters() << '/' << total_iter << ' ' << std::flush;
            ofs << "bpd:" << loss.item<float>() << "(ave:" << show_progress->get_ave(0) << ')' << std::endl;
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
