// Convolutional auto-encoder trainer, after Dimensionality_Reduction/AE2d/src/train.cpp
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

// reconstruction criterion selected by name (l1 / l2)
class Loss {
public:
    Loss() = default;
    explicit Loss(const std::string &kind) : judge(kind) {}
    torch::Tensor operator()(torch::Tensor &input, torch::Tensor &target) {
        if (judge == "l1") return torch::nn::functional::l1_loss(input, target);
        return torch::nn::functional::mse_loss(input, target);
    }
private:
    std::string judge = "l2";
};

void valid(po::variables_map &vm, DataLoader::ImageFolderWithPaths &valid_dataloader, torch::Device &device, Loss &criterion, ConvolutionalAutoEncoder &model, const size_t epoch, visualizer::graph &writer) {
    std::tuple<torch::Tensor, std::vector<std::string>> mini_batch;
    torch::Tensor image, output, loss;
    float total_loss = 0.0;
    size_t iteration = 0;
    torch::NoGradGuard no_grad;
    model->eval();
    while (valid_dataloader(mini_batch)) {
        image = std::get<0>(mini_batch).to(device);
        output = model->forward(image);
        loss = criterion(output, image);
        total_loss += loss.item<float>();
        iteration++;
    }
    float ave_loss = total_loss / (float)std::max<size_t>(iteration, 1);
    std::ofstream ofs("checkpoints/" + vm["dataset"].as<std::string>() + "/log/valid.txt", std::ios::app);
    ofs << "epoch:" << epoch << '/' << vm["epochs"].as<size_t>() << ' ' << "rec:" << ave_loss << std::endl;
    writer.plot(/*base=*/epoch, /*value=*/{ave_loss});
}

void train(po::variables_map &vm, torch::Device &device, ConvolutionalAutoEncoder &model, std::vector<transforms_Compose> &transform) {

    constexpr bool train_shuffle = true;
    constexpr size_t train_workers = 4;
    constexpr size_t save_sample_iter = 50;
    constexpr std::pair<float, float> output_range = {-1.0, 1.0};

    size_t epoch, iter, total_iter, start_epoch, total_epoch;
    size_t accum_iter, accum_count;
    std::string date, checkpoint_dir, save_images_dir, path, dataroot, valid_dataroot;
    std::stringstream ss;
    std::ofstream ofs;
    std::tuple<torch::Tensor, std::vector<std::string>> mini_batch;
    torch::Tensor loss, image, output;
    datasets::ImageFolderWithPaths dataset, valid_dataset;
    DataLoader::ImageFolderWithPaths dataloader, valid_dataloader;
    visualizer::graph train_loss, valid_loss;
    progress::display *show_progress;
    progress::irregular irreg_progress;

    // (1) datasets
    dataroot = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_dir"].as<std::string>();
    dataset = datasets::ImageFolderWithPaths(dataroot, transform);
    dataloader = DataLoader::ImageFolderWithPaths(dataset, vm["batch_size"].as<size_t>(), train_shuffle, train_workers);
    std::cout << "total training images : " << dataset.size() << std::endl;
    if (vm["valid"].as<bool>()) {
        valid_dataroot = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["valid_dir"].as<std::string>();
        valid_dataset = datasets::ImageFolderWithPaths(valid_dataroot, transform);
        valid_dataloader = DataLoader::ImageFolderWithPaths(valid_dataset, vm["valid_batch_size"].as<size_t>(), true, 4);
    }

    // (2) optimizer, criterion, micro-batches per update
    auto optimizer = torch::optim::Adam(model->parameters(), torch::optim::AdamOptions(vm["lr"].as<float>()).betas({vm["beta1"].as<float>(), vm["beta2"].as<float>()}));
    auto criterion = Loss(vm["loss"].as<std::string>());
    accum_iter = vm["accum_iter"].as<size_t>();

    // (3) directories and graphs
    checkpoint_dir = "checkpoints/" + vm["dataset"].as<std::string>();
    path = checkpoint_dir + "/models";  fs::create_directories(path);
    path = checkpoint_dir + "/optims";  fs::create_directories(path);
    path = checkpoint_dir + "/log";  fs::create_directories(path);
    save_images_dir = checkpoint_dir + "/samples";  fs::create_directories(save_images_dir);
    train_loss = visualizer::graph(checkpoint_dir + "/graph", "train_loss", {"Reconstruct"});
    if (vm["valid"].as<bool>()) valid_loss = visualizer::graph(checkpoint_dir + "/graph", "valid_loss", {"Reconstruct"});

    // (4) weights
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
    std::cout << std::endl << std::endl << date << std::endl;
    ofs << date << std::endl;

    start_epoch++;
    total_iter = dataloader.get_count_max();
    total_epoch = vm["epochs"].as<size_t>();
    accum_count = 0;

    irreg_progress.restart(start_epoch - 1, total_epoch);
    for (epoch = start_epoch; epoch <= total_epoch; epoch++) {

        model->train();
        ofs << std::endl << "epoch:" << epoch << '/' << total_epoch << std::endl;
        show_progress = new progress::display(total_iter, {epoch, total_epoch}, {"rec"});

        while (dataloader(mini_batch)) {

            image = std::get<0>(mini_batch).to(device);
            output = model->forward(image);
            loss = criterion(output, image) / (float)accum_iter;
            optimizer.zero_grad();
            loss.backward();
            if (++accum_count == accum_iter) {
                optimizer.step();
                accum_count = 0;
            }

            show_progress->increment({loss.item<float>() * (float)accum_iter});
            ofs << "iters:" << show_progress->get_iters() << '/' << total_iter << ' ' << std::flush;
            ofs << "rec:" << loss.item<float>() * (float)accum_iter << "(ave:" << show_progress->get_ave(0) << ')' << std::endl;

            iter = show_progress->get_iters();
            if (iter % save_sample_iter == 1) {
                ss.str(""); ss.clear(std::stringstream::goodbit);
                ss << save_images_dir << "/epoch_" << epoch << "-iter_" << iter << ".jpg";
                visualizer::save_image(output.detach(), ss.str(), output_range);
            }
        }

        train_loss.plot(epoch, show_progress->get_ave());
        delete show_progress;

        if (vm["valid"].as<bool>() && ((epoch - 1) % vm["valid_freq"].as<size_t>() == 0)) {
            valid(vm, valid_dataloader, device, criterion, model, epoch, valid_loss);
        }

        if (epoch % vm["save_epoch"].as<size_t>() == 0) {
            path = checkpoint_dir + "/models/epoch_" + std::to_string(epoch) + ".pth";  torch::save(model, path);
            path = checkpoint_dir + "/optims/epoch_" + std::to_string(epoch) + ".pth";  torch::save(optimizer, path);
        }
        path = checkpoint_dir + "/models/epoch_latest.pth";  torch::save(model, path);
        path = checkpoint_dir + "/optims/epoch_latest.pth";  torch::save(optimizer, path);

        if (epoch % 10 == 0) {
            irreg_progress.nab(epoch);
            ss.str(""); ss.clear(std::stringstream::goodbit);
            ss << "elapsed = " << irreg_progress.get_elap() << '(' << irreg_progress.get_sec_per() << "sec/epoch)   ";
            ss << "remaining = " << irreg_progress.get_rem();
            std::cout << ss.str() << std::endl << progress::separator() << std::endl;
            ofs << ss.str() << std::endl << progress::separator() << std::endl;
        }
    }

    ofs.close();
}
