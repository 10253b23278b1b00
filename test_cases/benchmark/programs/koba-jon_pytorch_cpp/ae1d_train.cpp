// 1-D auto-encoder trainer, after Dimensionality_Reduction/AE1d/src/train.cpp
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

// the 1-D data folders reuse the image-folder loader interface
namespace datasets { using Data1dFolderWithPaths = ImageFolderWithPaths; }
namespace DataLoader { using Data1dFolderWithPaths = ImageFolderWithPaths; }

struct AutoEncoder1dImpl : torch::nn::Module {
    AutoEncoder1dImpl(size_t nd, size_t nz) {
        encoder = register_module("encoder", torch::nn::Sequential(torch::nn::Linear(nd, 256), torch::nn::ReLU(), torch::nn::Linear(256, nz)));
        decoder = register_module("decoder", torch::nn::Sequential(torch::nn::Linear(nz, 256), torch::nn::ReLU(), torch::nn::Linear(256, nd)));
    }
    torch::Tensor forward(torch::Tensor x) { return decoder->forward(encoder->forward(x)); }
    torch::nn::Sequential encoder{nullptr}, decoder{nullptr};
};
TORCH_MODULE(AutoEncoder1d);

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

void train(po::variables_map &vm, torch::Device &device, AutoEncoder1d &model, std::vector<transforms_Compose> &transform) {

    size_t epoch, total_iter, start_epoch, total_epoch;
    std::string date, checkpoint_dir, path, dataroot;
    std::ofstream ofs;
    std::tuple<torch::Tensor, std::vector<std::string>> mini_batch;
    torch::Tensor loss, data, output;
    datasets::Data1dFolderWithPaths dataset;
    DataLoader::Data1dFolderWithPaths dataloader;
    visualizer::graph train_loss;
    progress::display *show_progress;

    dataroot = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_dir"].as<std::string>();
    dataset = datasets::Data1dFolderWithPaths(dataroot, transform);
    dataloader = DataLoader::Data1dFolderWithPaths(dataset, vm["batch_size"].as<size_t>(), true, 4);
    std::cout << "total training data : " << dataset.size() << std::endl;

    auto optimizer = torch::optim::Adam(model->parameters(), torch::optim::AdamOptions(vm["lr"].as<float>()).betas({vm["beta1"].as<float>(), vm["beta2"].as<float>()}));
    auto criterion = Loss(vm["loss"].as<std::string>());
    const size_t group_size = vm["group_size"].as<size_t>();  // mini-batches per update

    checkpoint_dir = "checkpoints/" + vm["dataset"].as<std::string>();
    path = checkpoint_dir + "/models";  fs::create_directories(path);
    path = checkpoint_dir + "/optims";  fs::create_directories(path);
    path = checkpoint_dir + "/log";  fs::create_directories(path);
    train_loss = visualizer::graph(checkpoint_dir + "/graph", "train_loss", {"Reconstruct"});

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

        bool more = true;
        while (more) {

            // gather up to group_size mini-batches; the last group of the epoch may be shorter
            std::vector<torch::Tensor> group;
            while (group.size() < group_size && (more = dataloader(mini_batch))) {
                group.push_back(std::get<0>(mini_batch).to(device));
            }
            if (group.empty()) break;

            optimizer.zero_grad();
            for (auto &x : group) {
                output = model->forward(x);
                loss = criterion(output, x);
                (loss / static_cast<double>(group.size())).backward();
                show_progress->increment({loss.item<float>()});
                ofs << "iters:" << show_progress->get_iters() << '/' << total_iter << ' ' << "rec:" << loss.item<float>() << std::endl;
            }
            optimizer.step();
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
