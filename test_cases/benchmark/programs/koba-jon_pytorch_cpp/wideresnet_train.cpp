// Wide ResNet classification trainer, after Multiclass_Classification/WideResNet/src/train.cpp
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
using WideResNet = Classifier;

class Loss {
public:
    explicit Loss(const float smoothing) : eps(smoothing) {}
    // cross entropy with label smoothing, mean over the mini-batch
    torch::Tensor operator()(torch::Tensor &input, torch::Tensor &target) {
        auto logp = torch::log_softmax(input, 1);
        auto nll = -logp.gather(1, target.unsqueeze(1)).squeeze(1);
        auto smooth = -logp.mean(1);
        return ((1.0 - eps) * nll + eps * smooth).mean();
    }
private:
    float eps;
};

// gradient of one mini-batch into .grad; returns the value for the logs
static float accumulate_gradients(torch::Tensor &loss) {
    loss.backward();
    return loss.item<float>();
}

void valid(po::variables_map &vm, DataLoader::ImageFolderClassesWithPaths &valid_dataloader, torch::Device &device, Loss &criterion, WideResNet &model, const std::vector<std::string> class_names, const size_t epoch, visualizer::graph &writer);

void train(po::variables_map &vm, torch::Device &device, WideResNet &model, std::vector<transforms_Compose> &transform, const std::vector<std::string> class_names) {

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

    // SGD + Nesterov with a step decay every `lr_step` epochs, as in the WRN paper
    auto optimizer = torch::optim::SGD(model->parameters(), torch::optim::SGDOptions(vm["lr"].as<float>()).momentum(0.9).nesterov(true).weight_decay(5e-4));
    auto scheduler = torch::optim::StepLR(optimizer, vm["lr_step"].as<size_t>(), 0.2);
    auto criterion = Loss(vm["label_smoothing"].as<float>());
    const size_t accumulation = vm["accumulation"].as<size_t>();

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
        optimizer.zero_grad();

        while (dataloader(mini_batch)) {

            image = std::get<0>(mini_batch).to(device);
            label = std::get<1>(mini_batch).to(device);
            output = model->forward(image);
            loss = criterion(output, label);
            const float loss_value = accumulate_gradients(loss);
            iter++;

            if (iter % accumulation == 0 || iter == total_iter) {
                optimizer.step();
                optimizer.zero_grad();
            }

            show_progress->increment({loss_value});
            ofs << "iters:" << iter << '/' << total_iter << ' ' << std::flush;
            ofs << "classify:" << loss_value << "(ave:" << show_progress->get_ave(0) << ')' << std::endl;
        }

        scheduler.step();  // once per epoch
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
