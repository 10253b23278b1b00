// U-Net image regression trainer with a half-precision network and float32 master weights,
// after Image-to-Image_Translation/U-Net_Regression/src/train.cpp
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

class Loss {
public:
    explicit Loss(const std::string &kind) : judge(kind) {}
    torch::Tensor operator()(torch::Tensor input, torch::Tensor target) {
        input = input.to(torch::kFloat);
        target = target.to(torch::kFloat);
        if (judge == "l1") return torch::nn::functional::l1_loss(input, target);
        return torch::nn::functional::mse_loss(input, target);
    }
private:
    std::string judge;
};

void valid(po::variables_map &vm, DataLoader::ImageFolderPairWithPaths &valid_dataloader, torch::Device &device, Loss &criterion, UNet &model, const size_t epoch, visualizer::graph &writer);

void train(po::variables_map &vm, torch::Device &device, UNet &model, std::vector<transforms_Compose> &transformI, std::vector<transforms_Compose> &transformO) {

    size_t epoch, total_iter, start_epoch, total_epoch;
    std::string date, checkpoint_dir, path, input_dir, output_dir;
    std::ofstream ofs;
    std::tuple<torch::Tensor, torch::Tensor, std::vector<std::string>, std::vector<std::string>> mini_batch;
    torch::Tensor loss, imageI, imageO, output;
    datasets::ImageFolderPairWithPaths dataset;
    DataLoader::ImageFolderPairWithPaths dataloader, valid_dataloader;
    visualizer::graph train_loss, valid_loss;
    progress::display *show_progress;

    input_dir = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_in_dir"].as<std::string>();
    output_dir = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_out_dir"].as<std::string>();
    dataset = datasets::ImageFolderPairWithPaths(input_dir, output_dir, transformI, transformO);
    dataloader = DataLoader::ImageFolderPairWithPaths(dataset, vm["batch_size"].as<size_t>(), true, 4);
    std::cout << "total training images : " << dataset.size() << std::endl;

    // float32 master copy of every parameter; the network itself runs in half precision
    if (vm["train_load_epoch"].as<std::string>() == "") model->apply(weights_init);
    std::vector<torch::Tensor> half_params = model->parameters();
    std::vector<torch::Tensor> master_params, master_grads;
    for (auto &p : half_params) {
        master_params.push_back(p.detach().clone().to(device, torch::kFloat).set_requires_grad(true));
        master_grads.push_back(torch::zeros_like(master_params.back()));
    }
    model->to(device, torch::kHalf);

    auto optimizer = torch::optim::Adam(master_params, torch::optim::AdamOptions(vm["lr"].as<float>()).betas({vm["beta1"].as<float>(), vm["beta2"].as<float>()}));
    auto criterion = Loss(vm["loss"].as<std::string>());
    const size_t accum = vm["accum"].as<size_t>();
    const float loss_scale = vm["loss_scale"].as<float>();

    checkpoint_dir = "checkpoints/" + vm["dataset"].as<std::string>();
    path = checkpoint_dir + "/models";  fs::create_directories(path);
    path = checkpoint_dir + "/optims";  fs::create_directories(path);
    path = checkpoint_dir + "/log";  fs::create_directories(path);
    train_loss = visualizer::graph(checkpoint_dir + "/graph", "train_loss", {"Regression"});
    ofs.open(checkpoint_dir + "/log/train.txt", std::ios::app);
    start_epoch = vm["train_load_epoch"].as<std::string>() == "" ? 0 : std::stoi(vm["train_load_epoch"].as<std::string>());

    date = progress::separator_center("Train Loss (" + progress::current_date() + ")");
    std::cout << date << std::endl;
    ofs << date << std::endl;

    start_epoch++;
    total_iter = dataloader.get_count_max();
    total_epoch = vm["epochs"].as<size_t>();
    size_t in_window = 0;

    for (epoch = start_epoch; epoch <= total_epoch; epoch++) {

        model->train();
        ofs << std::endl << "epoch:" << epoch << '/' << total_epoch << std::endl;
        show_progress = new progress::display(total_iter, {epoch, total_epoch}, {"rec"});

        while (dataloader(mini_batch)) {

            imageI = std::get<0>(mini_batch).to(device, torch::kHalf);
            imageO = std::get<1>(mini_batch).to(device);
            output = model->forward(imageI);
            loss = criterion(output, imageO);
            (loss * loss_scale / (float)accum).backward();

            // move this mini-batch's half gradients into the float32 sums, then clear them
            {
                torch::NoGradGuard no_grad;
                for (size_t i = 0; i < half_params.size(); i++) {
                    if (!half_params[i].grad().defined()) continue;
                    master_grads[i].add_(half_params[i].grad().to(torch::kFloat));
                    half_params[i].grad().zero_();
                }
            }

            if (++in_window == accum) {
                torch::NoGradGuard no_grad;
                for (size_t i = 0; i < master_params.size(); i++) {
                    master_params[i].mutable_grad() = master_grads[i] / loss_scale;
                }
                optimizer.step();
                optimizer.zero_grad();
                for (size_t i = 0; i < master_params.size(); i++) {
                    half_params[i].copy_(master_params[i]);
                    master_grads[i].zero_();
                }
                in_window = 0;
            }

            show_progress->increment({loss.item<float>()});
            ofs << "iters:" << show_progress->get_iters() << '/' << total_iter << ' ' << std::flush;
            ofs << "rec:" << loss.item<float>() << "(ave:" << show_progress->get_ave(0) << ')' << std::endl;
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
    }

    ofs.close();
}
