// Discriminator-network image classifier, after Multiclass_Classification/Discriminator/src/train.cpp
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
using MC_Discriminator = Classifier;

class Loss {
public:
    torch::Tensor operator()(torch::Tensor &input, torch::Tensor &target) {
        return torch::nn::functional::cross_entropy(input, target);
    }
};

void valid(po::variables_map &vm, DataLoader::ImageFolderClassesWithPaths &valid_dataloader, torch::Device &device, Loss &criterion, MC_Discriminator &model, const std::vector<std::string> class_names, const size_t epoch, visualizer::graph &writer);

void train(po::variables_map &vm, torch::Device &device, MC_Discriminator &model, std::vector<transforms_Compose> &transform, const std::vector<std::string> class_names) {

    size_t epoch, total_iter, start_epoch, total_epoch;
    std::string date, checkpoint_dir, path, dataroot, valid_dataroot;
    std::ofstream ofs;
    std::tuple<torch::Tensor, torch::Tensor, std::vector<std::string>> mini_batch;
    torch::Tensor loss, image, label, output;
    datasets::ImageFolderClassesWithPaths dataset, valid_dataset;
    DataLoader::ImageFolderClassesWithPaths dataloader, valid_dataloader;
    visualizer::graph train_loss, valid_loss;
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

    // decay counted in optimizer updates, stepped with them
    auto optimizer = torch::optim::Adam(model->parameters(), torch::optim::AdamOptions(vm["lr"].as<float>()).betas({vm["beta1"].as<float>(), vm["beta2"].as<float>()}).weight_decay(vm["weight_decay"].as<float>()));
    auto scheduler = torch::optim::StepLR(optimizer, vm["lr_step_updates"].as<size_t>(), vm["lr_gamma"].as<float>());
    auto criterion = Loss();
    const size_t accum = vm["accum"].as<size_t>();
    const double max_norm = vm["max_norm"].as<float>();

    checkpoint_dir = "checkpoints/" + vm["dataset"].as<std::string>();
    path = checkpoint_dir + "/models";  fs::create_directories(path);
    path = checkpoint_dir + "/optims";  fs::create_directories(path);
    path = checkpoint_dir + "/log";  fs::create_directories(path);
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

    for (epoch = start_epoch; epoch <= total_epoch; epoch++) {

        model->train();
        ofs << std::endl << "epoch:" << epoch << '/' << total_epoch << std::endl;
        show_progress = new progress::display(total_iter, {epoch, total_epoch}, {"classify"});
        size_t iter = 0;

        while (dataloader(mini_batch)) {

            // window start: nothing from the previous update may remain
            if (iter % accum == 0) optimizer.zero_grad();

            image = std::get<0>(mini_batch).to(device);
            label = std::get<1>(mini_batch).to(device);
            output = model->forward(image);
            loss = criterion(output, label);
            (loss / static_cast<float>(accum)).backward();
            iter++;

            if (iter % accum == 0 || iter == total_iter) {
                torch::nn::utils::clip_grad_norm_(model->parameters(), max_norm);
                optimizer.step();
                scheduler.step();
            }

            show_progress->increment({loss.item<float>()});
            ofs << "iters:" << iter << '/' << total_iter << ' ' << std::flush;
            ofs << "classify:" << loss.item<float>() << "(ave:" << show_progress->get_ave(0) << ')' << std::endl;
        }

        train_loss.plot(epoch, show_progress->get_ave());
        delete show_progress;

        if (vm["valid"].as<bool>() && ((epoch - 1) % vm["valid_freq"].as<size_t>() == 0)) {
            valid(vm, valid_dataloader, device, criterion, model, class_names, epoch, valid_loss);
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
