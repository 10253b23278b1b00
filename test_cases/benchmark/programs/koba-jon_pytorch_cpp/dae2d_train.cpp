// Denoising auto-encoder trainer, after Dimensionality_Reduction/DAE2d/src/train.cpp
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

void valid(po::variables_map &vm, DataLoader::ImageFolderPairWithPaths &valid_dataloader, torch::Device &device, Loss &criterion, ConvolutionalAutoEncoder &model, const size_t epoch, visualizer::graph &writer);

void train(po::variables_map &vm, torch::Device &device, ConvolutionalAutoEncoder &model, std::vector<transforms_Compose> &transformI, std::vector<transforms_Compose> &transformO) {

    constexpr size_t save_sample_iter = 50;
    constexpr std::pair<float, float> output_range = {-1.0, 1.0};

    size_t epoch, iter, total_iter, start_epoch, total_epoch;
    size_t mini_batch_size;
    std::string date, checkpoint_dir, save_images_dir, path;
    std::string input_dir, output_dir;
    std::stringstream ss;
    std::ofstream ofs;
    std::tuple<torch::Tensor, torch::Tensor, std::vector<std::string>, std::vector<std::string>> mini_batch;
    torch::Tensor loss, imageI, imageO, output, pair;
    datasets::ImageFolderPairWithPaths dataset, valid_dataset;
    DataLoader::ImageFolderPairWithPaths dataloader, valid_dataloader;
    visualizer::graph train_loss, valid_loss;
    progress::display *show_progress;

    // (1) paired training data (noisy input / clean target)
    input_dir = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_in_dir"].as<std::string>();
    output_dir = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_out_dir"].as<std::string>();
    dataset = datasets::ImageFolderPairWithPaths(input_dir, output_dir, transformI, transformO);
    dataloader = DataLoader::ImageFolderPairWithPaths(dataset, vm["batch_size"].as<size_t>(), true, 4);
    std::cout << "total training images : " << dataset.size() << std::endl;
    if (vm["valid"].as<bool>()) {
        input_dir = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["valid_in_dir"].as<std::string>();
        output_dir = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["valid_out_dir"].as<std::string>();
        valid_dataset = datasets::ImageFolderPairWithPaths(input_dir, output_dir, transformI, transformO);
        valid_dataloader = DataLoader::ImageFolderPairWithPaths(valid_dataset, vm["valid_batch_size"].as<size_t>(), true, 4);
    }

    // (2) optimizer: the effective batch is batch_size * grad_accum, so the step size is spread over the micro-batches
    const size_t grad_accum = vm["grad_accum"].as<size_t>();
    const float lr = vm["lr"].as<float>() / (float)grad_accum;
    auto optimizer = torch::optim::Adam(model->parameters(), torch::optim::AdamOptions(lr).betas({vm["beta1"].as<float>(), vm["beta2"].as<float>()}));
    auto criterion = Loss(vm["loss"].as<std::string>());

    // (3) directories
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
    std::cout << date << std::endl;
    ofs << date << std::endl;

    start_epoch++;
    total_iter = dataloader.get_count_max();
    total_epoch = vm["epochs"].as<size_t>();

    for (epoch = start_epoch; epoch <= total_epoch; epoch++) {

        model->train();
        ofs << std::endl << "epoch:" << epoch << '/' << total_epoch << std::endl;
        show_progress = new progress::display(total_iter, {epoch, total_epoch}, {"rec"});
        optimizer.zero_grad();

        while (dataloader(mini_batch)) {

            imageI = std::get<0>(mini_batch).to(device);
            imageO = std::get<1>(mini_batch).to(device);
            mini_batch_size = imageI.size(0);

            output = model->forward(imageI);
            loss = criterion(output, imageO);
            loss.backward();

            show_progress->increment({loss.item<float>()});
            iter = show_progress->get_iters();
            if ((iter % grad_accum == 0) || (iter == total_iter)) {
                optimizer.step();
                optimizer.zero_grad();
            }

            ofs << "iters:" << iter << '/' << total_iter << ' ' << std::flush;
            ofs << "rec:" << loss.item<float>() << "(ave:" << show_progress->get_ave(0) << ')' << std::endl;

            if (iter % save_sample_iter == 1) {
                ss.str(""); ss.clear(std::stringstream::goodbit);
                ss << save_images_dir << "/epoch_" << epoch << "-iter_" << iter << ".png";
                pair = torch::cat({imageI, output, imageO}, 0);
                visualizer::save_image(pair.detach(), ss.str(), output_range, mini_batch_size);
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
    }

    ofs.close();
}
