// Vision Transformer classification trainer, after Multiclass_Classification/ViT/src/train.cpp
#include <cmath>
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
    torch::Tensor operator()(torch::Tensor &input, torch::Tensor &target) {
        return torch::nn::functional::cross_entropy(input, target);
    }
};

// linear warm-up followed by a cosine decay, counted in calls to step()
class WarmupCosineLR : public torch::optim::LRScheduler {
public:
    WarmupCosineLR(torch::optim::Optimizer &optimizer, const double base_lr, const size_t warmup_steps, const size_t total_steps)
        : torch::optim::LRScheduler(optimizer), base_lr(base_lr), warmup_steps(warmup_steps), total_steps(total_steps) {}
private:
    std::vector<double> get_lrs() override {
        double lr;
        if (step_count_ < warmup_steps) {
            lr = base_lr * (double)(step_count_ + 1) / (double)warmup_steps;
        } else {
            double progress = (double)(step_count_ - warmup_steps) / (double)std::max<size_t>(total_steps - warmup_steps, 1);
            lr = 0.5 * base_lr * (1.0 + std::cos(M_PI * std::min(progress, 1.0)));
        }
        std::vector<double> lrs = get_current_lrs();
        std::fill(lrs.begin(), lrs.end(), lr);
        return lrs;
    }
    double base_lr;
    size_t warmup_steps, total_steps;
};

void valid(po::variables_map &vm, DataLoader::ImageFolderClassesWithPaths &valid_dataloader, torch::Device &device, Loss &criterion, ViT &model, const std::vector<std::string> class_names, const size_t epoch, visualizer::graph &writer, visualizer::graph &writer_accuracy) {
    std::tuple<torch::Tensor, torch::Tensor, std::vector<std::string>> mini_batch;
    torch::Tensor image, label, output, loss;
    float total_loss = 0.0;
    size_t iteration = 0, correct = 0, total = 0;
    torch::NoGradGuard no_grad;
    model->eval();
    while (valid_dataloader(mini_batch)) {
        image = std::get<0>(mini_batch).to(device);
        label = std::get<1>(mini_batch).to(device);
        output = model->forward(image);
        loss = criterion(output, label);
        total_loss += loss.item<float>();
        correct += output.argmax(1).eq(label).sum().item<int64_t>();
        total += label.size(0);
        iteration++;
    }
    const float ave_loss = total_loss / (float)std::max<size_t>(iteration, 1);
    const float accuracy = (float)correct / (float)std::max<size_t>(total, 1);
    writer.plot(epoch, {ave_loss});
    writer_accuracy.plot(epoch, {accuracy});
}

void train(po::variables_map &vm, torch::Device &device, ViT &model, std::vector<transforms_Compose> &transform, const std::vector<std::string> class_names) {

    size_t epoch, total_iter, start_epoch, total_epoch;
    std::string date, checkpoint_dir, path, dataroot, valid_dataroot;
    std::ofstream ofs;
    std::tuple<torch::Tensor, torch::Tensor, std::vector<std::string>> mini_batch;
    torch::Tensor loss, image, label, output;
    datasets::ImageFolderClassesWithPaths dataset, valid_dataset;
    DataLoader::ImageFolderClassesWithPaths dataloader, valid_dataloader;
    visualizer::graph train_loss, valid_loss, valid_accuracy;
    progress::display *show_progress;

    dataroot = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_dir"].as<std::string>();
    dataset = datasets::ImageFolderClassesWithPaths(dataroot, transform, class_names);
    dataloader = DataLoader::ImageFolderClassesWithPaths(dataset, vm["batch_size"].as<size_t>(), true, 4);
    std::cout << "total training images : " << dataset.size() << std::endl;
    if (vm["valid"].as<bool>()) {
        valid_dataroot = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["valid_dir"].as<std::string>();
        valid_dataset = datasets::ImageFolderClassesWithPaths(valid_dataroot, transform, class_names);
        valid_dataloader = DataLoader::ImageFolderClassesWithPaths(valid_dataset, vm["valid_batch_size"].as<size_t>(), true, 4);
    }

    // optimizer, warm-up/cosine schedule and accumulation
    const size_t accum = vm["accum"].as<size_t>();
    auto optimizer = torch::optim::AdamW(model->parameters(), torch::optim::AdamWOptions(vm["lr"].as<float>()).betas({vm["beta1"].as<float>(), vm["beta2"].as<float>()}).weight_decay(vm["weight_decay"].as<float>()));
    total_iter = dataloader.get_count_max();
    total_epoch = vm["epochs"].as<size_t>();
    const size_t total_updates = total_iter * total_epoch / accum;  // optimizer steps over the whole run
    auto scheduler = WarmupCosineLR(optimizer, vm["lr"].as<float>(), vm["warmup_updates"].as<size_t>(), total_updates);
    auto criterion = Loss();

    checkpoint_dir = "checkpoints/" + vm["dataset"].as<std::string>();
    path = checkpoint_dir + "/models";  fs::create_directories(path);
    path = checkpoint_dir + "/optims";  fs::create_directories(path);
    path = checkpoint_dir + "/log";  fs::create_directories(path);
    train_loss = visualizer::graph(checkpoint_dir + "/graph", "train_loss", {"Classification"});
    if (vm["valid"].as<bool>()) {
        valid_loss = visualizer::graph(checkpoint_dir + "/graph", "valid_loss", {"Classification"});
        valid_accuracy = visualizer::graph(checkpoint_dir + "/graph", "valid_accuracy", {"Accuracy"});
    }

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
    size_t global_iter = 0;

    for (epoch = start_epoch; epoch <= total_epoch; epoch++) {

        model->train();
        ofs << std::endl << "epoch:" << epoch << '/' << total_epoch << std::endl;
        show_progress = new progress::display(total_iter, {epoch, total_epoch}, {"classify"});

        while (dataloader(mini_batch)) {

            image = std::get<0>(mini_batch).to(device);
            label = std::get<1>(mini_batch).to(device);
            output = model->forward(image);
            loss = criterion(output, label);
            (loss / (float)accum).backward();
            global_iter++;

            if (global_iter % accum == 0) {
                optimizer.step();
                optimizer.zero_grad();
            }
            scheduler.step();

            show_progress->increment({loss.item<float>()});
            ofs << "iters:" << show_progress->get_iters() << '/' << total_iter << ' ' << std::flush;
            ofs << "classify:" << loss.item<float>() << "(ave:" << show_progress->get_ave(0) << ')' << std::endl;
        }

        train_loss.plot(epoch, show_progress->get_ave());
        delete show_progress;

        if (vm["valid"].as<bool>() && ((epoch - 1) % vm["valid_freq"].as<size_t>() == 0)) {
            valid(vm, valid_dataloader, device, criterion, model, class_names, epoch, valid_loss, valid_accuracy);
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
