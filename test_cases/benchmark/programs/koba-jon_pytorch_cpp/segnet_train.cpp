// SegNet semantic segmentation trainer, after Semantic_Segmentation/SegNet/src/train.cpp
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

// pixel-wise cross entropy over class maps
class Loss {
public:
    torch::Tensor operator()(torch::Tensor &input, torch::Tensor &target) {
        return torch::nn::functional::cross_entropy(input, target.to(torch::kLong));
    }
};

static float pixel_accuracy(const torch::Tensor &output, const torch::Tensor &label) {
    auto pred = output.argmax(1);
    return pred.eq(label).to(torch::kFloat).mean().item<float>();
}

void valid(po::variables_map &vm, DataLoader::ImageFolderSegmentWithPaths &valid_dataloader, torch::Device &device, Loss &criterion, SegNet &model, const size_t epoch, visualizer::graph &writer) {
    std::tuple<torch::Tensor, torch::Tensor, std::vector<std::string>, std::vector<std::string>> mini_batch;
    torch::Tensor image, label, output, loss;
    float total_loss = 0.0, total_acc = 0.0;
    size_t iteration = 0;
    torch::NoGradGuard no_grad;
    model->eval();
    while (valid_dataloader(mini_batch)) {
        image = std::get<0>(mini_batch).to(device);
        label = std::get<1>(mini_batch).to(device);
        output = model->forward(image);
        loss = criterion(output, label);
        total_loss += loss.item<float>();
        total_acc += pixel_accuracy(output, label);
        iteration++;
    }
    iteration = std::max<size_t>(iteration, 1);
    std::ofstream ofs("checkpoints/" + vm["dataset"].as<std::string>() + "/log/valid.txt", std::ios::app);
    ofs << "epoch:" << epoch << ' ' << "classify:" << total_loss / iteration << " pixel-acc:" << total_acc / iteration << std::endl;
    writer.plot(epoch, {total_loss / (float)iteration});
}

void train(po::variables_map &vm, torch::Device &device, SegNet &model, std::vector<transforms_Compose> &transformI, std::vector<transforms_Compose> &transformO) {

    constexpr size_t save_sample_iter = 50;

    size_t epoch, iter, total_iter, start_epoch, total_epoch;
    std::string date, checkpoint_dir, save_images_dir, path, input_dir, output_dir;
    std::stringstream ss;
    std::ofstream ofs;
    std::tuple<torch::Tensor, torch::Tensor, std::vector<std::string>, std::vector<std::string>> mini_batch;
    torch::Tensor loss, image, label, output;
    datasets::ImageFolderSegmentWithPaths dataset, valid_dataset;
    DataLoader::ImageFolderSegmentWithPaths dataloader, valid_dataloader;
    visualizer::graph train_loss, valid_loss;
    progress::display *show_progress;

    input_dir = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_in_dir"].as<std::string>();
    output_dir = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_out_dir"].as<std::string>();
    dataset = datasets::ImageFolderSegmentWithPaths(input_dir, output_dir, transformI, transformO);
    dataloader = DataLoader::ImageFolderSegmentWithPaths(dataset, vm["batch_size"].as<size_t>(), true, 4);
    std::cout << "total training images : " << dataset.size() << std::endl;
    if (vm["valid"].as<bool>()) {
        input_dir = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["valid_in_dir"].as<std::string>();
        output_dir = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["valid_out_dir"].as<std::string>();
        valid_dataset = datasets::ImageFolderSegmentWithPaths(input_dir, output_dir, transformI, transformO);
        valid_dataloader = DataLoader::ImageFolderSegmentWithPaths(valid_dataset, vm["valid_batch_size"].as<size_t>(), true, 4);
    }

    auto optimizer = torch::optim::Adam(model->parameters(), torch::optim::AdamOptions(vm["lr"].as<float>()).betas({vm["beta1"].as<float>(), vm["beta2"].as<float>()}));
    auto criterion = Loss();
    const size_t accumulation = vm["accumulation"].as<size_t>();
    const double max_grad_norm = vm["max_grad_norm"].as<float>();

    checkpoint_dir = "checkpoints/" + vm["dataset"].as<std::string>();
    path = checkpoint_dir + "/models";  fs::create_directories(path);
    path = checkpoint_dir + "/optims";  fs::create_directories(path);
    path = checkpoint_dir + "/log";  fs::create_directories(path);
    save_images_dir = checkpoint_dir + "/samples";  fs::create_directories(save_images_dir);
    train_loss = visualizer::graph(checkpoint_dir + "/graph", "train_loss", {"Classification"});
    if (vm["valid"].as<bool>()) valid_loss = visualizer::graph(checkpoint_dir + "/graph", "valid_loss", {"Classification"});

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
    size_t remaining = accumulation;  // micro-batches left before the next update
    optimizer.zero_grad();

    for (epoch = start_epoch; epoch <= total_epoch; epoch++) {

        model->train();
        ofs << std::endl << "epoch:" << epoch << '/' << total_epoch << std::endl;
        show_progress = new progress::display(total_iter, {epoch, total_epoch}, {"classify"});

        while (dataloader(mini_batch)) {

            image = std::get<0>(mini_batch).to(device);
            label = std::get<1>(mini_batch).to(device);
            output = model->forward(image);
            loss = criterion(output, label);
            (loss / static_cast<float>(accumulation)).backward();
            torch::nn::utils::clip_grad_norm_(model->parameters(), max_grad_norm);
            remaining--;
            if (remaining == 0) {
                optimizer.step();
                optimizer.zero_grad();
                remaining = accumulation;
            }

            show_progress->increment({loss.item<float>()});
            ofs << "iters:" << show_progress->get_iters() << '/' << total_iter << ' ' << std::flush;
            ofs << "classify:" << loss.item<float>() << "(ave:" << show_progress->get_ave(0) << ')' << std::endl;

            iter = show_progress->get_iters();
            if (iter % save_sample_iter == 1) {
                ss.str(""); ss.clear(std::stringstream::goodbit);
                ss << save_images_dir << "/epoch_" << epoch << "-iter_" << iter << ".png";
                visualizer::save_image(output.argmax(1, true).to(torch::kFloat).detach(), ss.str());
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
