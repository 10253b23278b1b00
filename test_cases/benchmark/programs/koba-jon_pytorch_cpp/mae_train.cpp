// Masked auto-encoder pre-training, after Representation_Learning/MAE/src/train.cpp
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

// mean squared error on the masked patches only
class Loss {
public:
    torch::Tensor operator()(torch::Tensor &target, torch::Tensor &pred, torch::Tensor &mask) {
        auto per_patch = (pred - target).pow(2).mean(-1);
        return (per_patch * mask).sum() / mask.sum().clamp_min(1.0);
    }
};

// half-cycle cosine after a linear warm-up, evaluated at a fractional epoch
static float adjust_learning_rate(torch::optim::AdamW &optimizer, const float epoch_f, const float lr, const float min_lr, const size_t warmup_epochs, const size_t epochs) {
    float new_lr;
    if (epoch_f < (float)warmup_epochs) {
        new_lr = lr * epoch_f / (float)warmup_epochs;
    } else {
        new_lr = min_lr + (lr - min_lr) * 0.5f * (1.0f + std::cos((float)M_PI * (epoch_f - warmup_epochs) / (float)(epochs - warmup_epochs)));
    }
    for (auto &group : optimizer.param_groups()) {
        static_cast<torch::optim::AdamWOptions &>(group.options()).lr(new_lr);
    }
    return new_lr;
}

void valid(po::variables_map &vm, DataLoader::ImageFolderWithPaths &valid_dataloader, torch::Device &device, Loss &criterion, MaskedAutoEncoder &model, const size_t epoch, visualizer::graph &writer);

void train(po::variables_map &vm, torch::Device &device, MaskedAutoEncoder &model, std::vector<transforms_Compose> &transform) {

    size_t epoch, total_iter, start_epoch, total_epoch;
    std::string date, checkpoint_dir, path, dataroot;
    std::ofstream ofs;
    std::tuple<torch::Tensor, std::vector<std::string>> mini_batch;
    std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> out;
    torch::Tensor loss, image, patch, output, mask;
    datasets::ImageFolderWithPaths dataset;
    DataLoader::ImageFolderWithPaths dataloader, valid_dataloader;
    visualizer::graph train_loss, valid_loss;
    progress::display *show_progress;

    dataroot = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_dir"].as<std::string>();
    dataset = datasets::ImageFolderWithPaths(dataroot, transform);
    dataloader = DataLoader::ImageFolderWithPaths(dataset, vm["batch_size"].as<size_t>(), true, 4);
    std::cout << "total training images : " << dataset.size() << std::endl;

    // the MAE recipe gives a base rate per 256 images; the real rate follows the effective batch
    const size_t accum_iter = vm["accum_iter"].as<size_t>();
    const size_t eff_batch_size = vm["batch_size"].as<size_t>() * accum_iter;
    const float lr = vm["blr"].as<float>() * (float)eff_batch_size / 256.0f;
    const float min_lr = vm["min_lr"].as<float>();
    std::cout << "effective batch size : " << eff_batch_size << "  lr : " << lr << std::endl;
    auto optimizer = torch::optim::AdamW(model->parameters(), torch::optim::AdamWOptions(lr).betas({0.9, 0.95}).weight_decay(vm["weight_decay"].as<float>()));
    auto criterion = Loss();

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
        size_t data_iter_step = 0;
        optimizer.zero_grad();

        while (dataloader(mini_batch)) {

            // per-update learning rate, set at the first micro-batch of each window
            if (data_iter_step % accum_iter == 0) {
                adjust_learning_rate(optimizer, (float)data_iter_step / (float)total_iter + (float)(epoch - 1), lr, min_lr, vm["warmup_epochs"].as<size_t>(), total_epoch);
            }

            image = std::get<0>(mini_batch).to(device);
            out = model->forward(image);
            patch = std::get<0>(out);
            output = std::get<1>(out);
            mask = std::get<2>(out);
            loss = criterion(patch, output, mask);
            (loss / (float)accum_iter).backward();

            if ((data_iter_step + 1) % accum_iter == 0) {
                optimizer.step();
                optimizer.zero_grad();
            }
            data_iter_step++;

            show_progress->increment({loss.item<float>()});
            ofs << "iters:" << show_progress->get_iters() << '/' << total_iter << ' ' << std::flush;
            ofs << "rec:" << loss.item<float>() << "(ave:" << show_progress->get_ave(0) << ')' << std::endl;
        }

        // the mini-batches after the last full window still make an update
        if (data_iter_step % accum_iter != 0) {
            optimizer.step();
            optimizer.zero_grad();
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
