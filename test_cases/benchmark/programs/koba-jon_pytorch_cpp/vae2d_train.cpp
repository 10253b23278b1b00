// Variational auto-encoder trainer, after Generative_Modeling/VAE2d/src/train.cpp
#include <iostream>
#include <fstream>
#include <filesystem>
#include <string>
#include <sstream>
#include <tuple>
#include <vector>
#include <utility>
#include <torch/torch.h>
#include "koba_support.hpp"

namespace fs = std::filesystem;

class Loss {
public:
    explicit Loss(const std::string &kind) : judge(kind) {}
    torch::Tensor operator()(torch::Tensor &input, torch::Tensor &target) {
        if (judge == "l1") return torch::nn::functional::l1_loss(input, target);
        return torch::nn::functional::mse_loss(input, target);
    }
private:
    std::string judge;
};

// Kullback-Leibler divergence of N(mean, exp(var)) from N(0, I), averaged over the batch
static torch::Tensor kld_loss(const torch::Tensor &mean, const torch::Tensor &var) {
    return (-0.5 * torch::sum(1.0 + var - mean.pow(2) - var.exp(), 1)).mean();
}

void valid(po::variables_map &vm, DataLoader::ImageFolderWithPaths &valid_dataloader, torch::Device &device, Loss &criterion, VariationalAutoEncoder &model, const size_t epoch, visualizer::graph &writer);

void train(po::variables_map &vm, torch::Device &device, VariationalAutoEncoder &model, std::vector<transforms_Compose> &transform) {

    constexpr size_t save_sample_iter = 50;
    constexpr std::pair<float, float> output_range = {-1.0, 1.0};

    size_t epoch, iter, total_iter, start_epoch, total_epoch;
    std::string date, checkpoint_dir, save_images_dir, path, dataroot;
    std::stringstream ss;
    std::ofstream ofs;
    std::tuple<torch::Tensor, std::vector<std::string>> mini_batch;
    torch::Tensor loss, rec, kld, image, output, mean, var;
    std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> model_out;
    datasets::ImageFolderWithPaths dataset;
    DataLoader::ImageFolderWithPaths dataloader, valid_dataloader;
    visualizer::graph train_loss, valid_loss;
    progress::display *show_progress;

    dataroot = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_dir"].as<std::string>();
    dataset = datasets::ImageFolderWithPaths(dataroot, transform);
    dataloader = DataLoader::ImageFolderWithPaths(dataset, vm["batch_size"].as<size_t>(), true, 4);
    std::cout << "total training images : " << dataset.size() << std::endl;

    auto optimizer = torch::optim::Adam(model->parameters(), torch::optim::AdamOptions(vm["lr"].as<float>()).betas({vm["beta1"].as<float>(), vm["beta2"].as<float>()}));
    auto criterion = Loss(vm["loss"].as<std::string>());
    const size_t n_accum = vm["n_accum"].as<size_t>();
    const float kld_weight = vm["Lambda"].as<float>();

    checkpoint_dir = "checkpoints/" + vm["dataset"].as<std::string>();
    path = checkpoint_dir + "/models";  fs::create_directories(path);
    path = checkpoint_dir + "/optims";  fs::create_directories(path);
    path = checkpoint_dir + "/log";  fs::create_directories(path);
    save_images_dir = checkpoint_dir + "/samples";  fs::create_directories(save_images_dir);
    train_loss = visualizer::graph(checkpoint_dir + "/graph", "train_loss", {"Reconstruct", "KL"});

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
    size_t accumulated = 0;  // mini-batches whose gradients sit in .grad
    optimizer.zero_grad();

    for (epoch = start_epoch; epoch <= total_epoch; epoch++) {

        model->train();
        ofs << std::endl << "epoch:" << epoch << '/' << total_epoch << std::endl;
        show_progress = new progress::display(total_iter, {epoch, total_epoch}, {"rec", "kld"});

        while (dataloader(mini_batch)) {

            image = std::get<0>(mini_batch).to(device);
            model_out = model->forward(image);
            output = std::get<0>(model_out);
            mean = std::get<1>(model_out);
            var = std::get<2>(model_out);
            rec = criterion(output, image);
            kld = kld_loss(mean, var) * kld_weight;
            loss = rec + kld;
            loss.backward();
            accumulated++;

            if (accumulated == n_accum) {
                // .grad holds the sum over n_accum mini-batches: average it before the update
                for (auto &param : model->parameters()) {
                    if (param.grad().defined()) param.mutable_grad().div_((double)n_accum);
                }
                optimizer.step();
                optimizer.zero_grad();
                accumulated = 0;
            }

            show_progress->increment({rec.item<float>(), kld.item<float>()});
            ofs << "iters:" << show_progress->get_iters() << '/' << total_iter << ' ' << std::flush;
            ofs << "rec:" << rec.item<float>() << "(ave:" << show_progress->get_ave(0) << ") " << std::flush;
            ofs << "kld:" << kld.item<float>() << "(ave:" << show_progress->get_ave(1) << ')' << std::endl;

            iter = show_progress->get_iters();
            if (iter % save_sample_iter == 1) {
                ss.str(""); ss.clear(std::stringstream::goodbit);
                ss << save_images_dir << "/epoch_" << epoch << "-iter_" << iter << ".png";
                visualizer::save_image(output.detach(), ss.str(), output_range);
            }
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
