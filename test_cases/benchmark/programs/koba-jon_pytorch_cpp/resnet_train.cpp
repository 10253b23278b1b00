// ResNet classification trainer made data-parallel over Gloo, after Multiclass_Classification/ResNet/src/train.cpp
#include <cstdlib>
#include <iostream>
#include <fstream>
#include <filesystem>
#include <string>
#include <sstream>
#include <tuple>
#include <vector>
#include <utility>
#include <torch/torch.h>
#include <c10d/FileStore.hpp>
#include <c10d/ProcessGroupGloo.hpp>
#include "koba_support.hpp"

namespace fs = std::filesystem;

class Loss {
public:
    torch::Tensor operator()(torch::Tensor &input, torch::Tensor &target) {
        return torch::nn::functional::cross_entropy(input, target);
    }
};

// sum the gradients of all ranks, then turn the sum into the mean
static void average_gradients(MC_ResNet &model, const c10::intrusive_ptr<c10d::ProcessGroupGloo> &pg) {
    for (auto &param : model->parameters()) {
        if (!param.grad().defined()) continue;
        std::vector<torch::Tensor> bucket{param.grad()};
        pg->allreduce(bucket)->wait();
        param.grad().div_(pg->getSize());
    }
}

// every rank starts from rank 0's weights
static void broadcast_parameters(MC_ResNet &model, const c10::intrusive_ptr<c10d::ProcessGroupGloo> &pg) {
    torch::NoGradGuard no_grad;
    for (auto &param : model->parameters()) {
        std::vector<torch::Tensor> bucket{param.data()};
        pg->broadcast(bucket)->wait();
    }
}

void valid(po::variables_map &vm, DataLoader::ImageFolderClassesWithPaths &valid_dataloader, torch::Device &device, Loss &criterion, MC_ResNet &model, const std::vector<std::string> class_names, const size_t epoch, visualizer::graph &writer);

void train(po::variables_map &vm, torch::Device &device, MC_ResNet &model, std::vector<transforms_Compose> &transform, const std::vector<std::string> class_names) {

    size_t epoch, total_iter, start_epoch, total_epoch;
    std::string date, checkpoint_dir, path, dataroot, valid_dataroot;
    std::ofstream ofs;
    std::tuple<torch::Tensor, torch::Tensor, std::vector<std::string>> mini_batch;
    torch::Tensor loss, image, label, output;
    datasets::ImageFolderClassesWithPaths dataset, valid_dataset;
    DataLoader::ImageFolderClassesWithPaths dataloader, valid_dataloader;
    visualizer::graph train_loss, valid_loss;
    progress::display *show_progress;

    // (0) process group from the launcher's environment
    const int rank = std::atoi(std::getenv("RANK"));
    const int world_size = std::atoi(std::getenv("WORLD_SIZE"));
    auto store = c10::make_intrusive<c10d::FileStore>(vm["dist_file"].as<std::string>(), world_size);
    auto pg_opts = c10d::ProcessGroupGloo::Options::create();
    pg_opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
    auto pg = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size, pg_opts);

    // (1) each rank reads its own shard of the training folder
    dataroot = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_dir"].as<std::string>() + "/shard_" + std::to_string(rank);
    dataset = datasets::ImageFolderClassesWithPaths(dataroot, transform, class_names);
    dataloader = DataLoader::ImageFolderClassesWithPaths(dataset, vm["batch_size"].as<size_t>(), true, 4);
    if (rank == 0) std::cout << "total training images (rank 0) : " << dataset.size() << std::endl;
    if (vm["valid"].as<bool>() && rank == 0) {
        valid_dataroot = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["valid_dir"].as<std::string>();
        valid_dataset = datasets::ImageFolderClassesWithPaths(valid_dataroot, transform, class_names);
        valid_dataloader = DataLoader::ImageFolderClassesWithPaths(valid_dataset, vm["valid_batch_size"].as<size_t>(), true, 4);
    }

    // (2) optimizer; gradients of accum_steps mini-batches on every rank make one update
    auto optimizer = torch::optim::Adam(model->parameters(), torch::optim::AdamOptions(vm["lr"].as<float>()).betas({vm["beta1"].as<float>(), vm["beta2"].as<float>()}));
    auto criterion = Loss();
    const size_t accum_steps = vm["accum_steps"].as<size_t>();

    checkpoint_dir = "checkpoints/" + vm["dataset"].as<std::string>();
    if (rank == 0) {
        path = checkpoint_dir + "/models";  fs::create_directories(path);
        path = checkpoint_dir + "/optims";  fs::create_directories(path);
        path = checkpoint_dir + "/log";  fs::create_directories(path);
        train_loss = visualizer::graph(checkpoint_dir + "/graph", "train_loss", {"Classification"});
        valid_loss = visualizer::graph(checkpoint_dir + "/graph", "valid_loss", {"Classification"});
    }

    if (vm["train_load_epoch"].as<std::string>() == "") {
        model->apply(weights_init);
        start_epoch = 0;
    } else {
        path = checkpoint_dir + "/models/epoch_" + vm["train_load_epoch"].as<std::string>() + ".pth";  torch::load(model, path, device);
        path = checkpoint_dir + "/optims/epoch_" + vm["train_load_epoch"].as<std::string>() + ".pth";  torch::load(optimizer, path, device);
        start_epoch = std::stoi(vm["train_load_epoch"].as<std::string>());
    }
    broadcast_parameters(model, pg);
    ofs.open(checkpoint_dir + "/log/train_rank" + std::to_string(rank) + ".txt", std::ios::app);

    date = progress::separator_center("Train Loss (" + progress::current_date() + ")");
    if (rank == 0) std::cout << date << std::endl;
    ofs << date << std::endl;

    start_epoch++;
    total_iter = dataloader.get_count_max();
    total_epoch = vm["epochs"].as<size_t>();
    size_t micro_step = 0;
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
            auto scaled_loss = loss / static_cast<double>(accum_steps * world_size);
            scaled_loss.backward();
            micro_step++;

            if (micro_step % accum_steps == 0) {
                average_gradients(model, pg);
                optimizer.step();
                optimizer.zero_grad();
            }

            show_progress->increment({loss.item<float>()});
            ofs << "iters:" << show_progress->get_iters() << '/' << total_iter << ' ' << std::flush;
            ofs << "classify:" << loss.item<float>() << "(ave:" << show_progress->get_ave(0) << ')' << std::endl;
        }

        delete show_progress;

        if (rank == 0) {
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
    }

    ofs.close();
}
