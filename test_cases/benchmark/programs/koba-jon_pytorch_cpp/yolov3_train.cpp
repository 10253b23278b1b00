// YOLOv3 detector trainer, after Object_Detection/YOLOv3/src/train.cpp
#include <cmath>
#include <iostream>
#include <fstream>
#include <filesystem>
#include <string>
#include <sstream>
#include <tuple>
#include <vector>
#include <utility>
#include <random>
#include <torch/torch.h>
#include "koba_support.hpp"

namespace fs = std::filesystem;
namespace F = torch::nn::functional;

// YOLOv3 criterion stand-in: (coord_xy, coord_wh, obj, noobj, class)
class Loss {
public:
    Loss(const std::vector<std::tuple<float, float>> anchors_, const long int class_num_, const float ignore_thresh_) : class_num(class_num_) {}
    std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor> operator()(std::vector<torch::Tensor> &inputs, std::vector<std::tuple<torch::Tensor, torch::Tensor>> &target, const std::tuple<float, float> image_sizes) {
        auto p = inputs.at(0);
        return {p.pow(2).mean(), p.abs().mean(), torch::sigmoid(p).mean(), torch::sigmoid(-p).mean(), p.mean().pow(2)};
    }
private:
    long int class_num;
};

template <typename Optimizer, typename OptimizerOptions>
void Update_LR(Optimizer &optimizer, const float lr_init, const float lr_base, const float lr_decay1, const float lr_decay2, const size_t epoch, const float burnin_base, const float burnin_exp = 4.0) {
    float lr;
    if (epoch == 1) lr = lr_init + (lr_base - lr_init) * std::pow(burnin_base, burnin_exp);
    else if (epoch == 2) lr = lr_base;
    else if (epoch == 76) lr = lr_decay1;
    else if (epoch == 106) lr = lr_decay2;
    else return;
    for (auto &param_group : optimizer.param_groups()) {
        if (param_group.has_options()) {
            auto &options = (OptimizerOptions &)(param_group.options());
            options.lr(lr);
        }
    }
}

void valid(po::variables_map &vm, DataLoader::ImageFolderBBWithPaths &valid_dataloader, torch::Device &device, Loss &criterion, YOLOv3 &model, const std::vector<std::string> class_names, const size_t epoch, std::vector<visualizer::graph> &writer);

void train(po::variables_map &vm, torch::Device &device, YOLOv3 &model, std::vector<transforms_Compose> &transform, const std::vector<std::string> class_names, const std::vector<std::tuple<float, float>> anchors) {

    constexpr size_t resize_step_max = 10;

    size_t epoch, total_iter, start_epoch, total_epoch, resize_step, idx;
    long int width, height;
    float lr_init, lr_base, lr_decay1, lr_decay2;
    std::string date, checkpoint_dir, path, input_dir, ids_dir;
    std::ofstream ofs;
    std::tuple<torch::Tensor, std::vector<std::tuple<torch::Tensor, torch::Tensor>>, std::vector<std::string>, std::vector<std::string>> mini_batch;
    torch::Tensor image, loss, loss_coord_xy, loss_coord_wh, loss_obj, loss_noobj, loss_class;
    std::vector<torch::Tensor> output;
    std::vector<std::tuple<torch::Tensor, torch::Tensor>> label;
    std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor> losses;
    datasets::ImageFolderBBWithPaths dataset, valid_dataset;
    DataLoader::ImageFolderBBWithPaths dataloader, valid_dataloader;
    std::vector<visualizer::graph> train_loss, valid_loss;
    progress::display *show_progress;
    std::vector<std::tuple<long int, long int>> resizes;
    std::mt19937 mt(std::random_device{}());

    input_dir = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_in_dir"].as<std::string>();
    ids_dir = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_out_dir"].as<std::string>();
    dataset = datasets::ImageFolderBBWithPaths(input_dir, ids_dir, transform);
    dataloader = DataLoader::ImageFolderBBWithPaths(dataset, vm["batch_size"].as<size_t>(), true, 4);
    std::cout << "total training images : " << dataset.size() << std::endl;

    // SGD as in darknet; one update every `subdivisions` mini-batches
    using Optimizer = torch::optim::SGD;
    using OptimizerOptions = torch::optim::SGDOptions;
    auto optimizer = Optimizer(model->parameters(), OptimizerOptions(vm["lr_init"].as<float>()).momentum(vm["momentum"].as<float>()).weight_decay(vm["weight_decay"].as<float>()));
    const size_t subdivisions = vm["subdivisions"].as<size_t>();
    auto criterion = Loss(anchors, (long int)vm["class_num"].as<size_t>(), vm["ignore_thresh"].as<float>());

    checkpoint_dir = "checkpoints/" + vm["dataset"].as<std::string>();
    path = checkpoint_dir + "/models";  fs::create_directories(path);
    path = checkpoint_dir + "/optims";  fs::create_directories(path);
    path = checkpoint_dir + "/log";  fs::create_directories(path);
    train_loss = std::vector<visualizer::graph>(6);
    train_loss.at(0) = visualizer::graph(checkpoint_dir + "/graph", "train_loss_all", {"Total"});
    train_loss.at(1) = visualizer::graph(checkpoint_dir + "/graph", "train_loss_coord", {"Coordinate"});

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
    lr_init = vm["lr_init"].as<float>();
    lr_base = vm["lr_base"].as<float>();
    lr_decay1 = vm["lr_decay1"].as<float>();
    lr_decay2 = vm["lr_decay2"].as<float>();
    for (long int s = 320; s <= 608; s += 32) resizes.push_back({s, s});
    std::uniform_int_distribution<size_t> urand(0, resizes.size() - 1);
    width = height = (long int)vm["size"].as<size_t>();
    resize_step = 0;

    for (epoch = start_epoch; epoch <= total_epoch; epoch++) {

        model->train();
        ofs << std::endl << "epoch:" << epoch << '/' << total_epoch << std::endl;
        show_progress = new progress::display(total_iter, {epoch, total_epoch}, {"coord_xy", "coord_wh", "conf_o", "conf_x", "class", "W", "H"});
        size_t subdivision = 0;

        while (dataloader(mini_batch)) {

            image = std::get<0>(mini_batch).to(device);
            label = std::get<1>(mini_batch);

            // (1) learning rate (burn-in on the first epoch)
            Update_LR<Optimizer, OptimizerOptions>(optimizer, lr_init, lr_base, lr_decay1, lr_decay2, epoch, (float)show_progress->get_iters() / (float)total_iter);

            // (2) multi-scale input
            resize_step++;
            if (resize_step > resize_step_max) {
                resize_step = 1;
                idx = urand(mt);
                width = std::get<0>(resizes.at(idx));
                height = std::get<1>(resizes.at(idx));
            }
            image = F::interpolate(image, F::InterpolateFuncOptions().size(std::vector<long int>({height, width})).mode(torch::kBilinear).align_corners(false));

            // (3) forward / backward of one subdivision
            output = model->forward(image);
            losses = criterion(output, label, {(float)width, (float)height});
            loss_coord_xy = std::get<0>(losses) * vm["Lambda_coord"].as<float>();
            loss_coord_wh = std::get<1>(losses) * vm["Lambda_coord"].as<float>();
            loss_obj = std::get<2>(losses) * vm["Lambda_object"].as<float>();
            loss_noobj = std::get<3>(losses) * vm["Lambda_noobject"].as<float>();
            loss_class = std::get<4>(losses) * vm["Lambda_class"].as<float>();
            loss = loss_coord_xy + loss_coord_wh + loss_obj + loss_noobj + loss_class;
            (loss / (float)subdivisions).backward();

            subdivision++;
            if (subdivision % subdivisions == 0) {
                optimizer.step();
                optimizer.zero_grad();
            }

            show_progress->increment({loss_coord_xy.item<float>(), loss_coord_wh.item<float>(), loss_obj.item<float>(), loss_noobj.item<float>(), loss_class.item<float>(), (float)width, (float)height});
            ofs << "iters:" << show_progress->get_iters() << '/' << total_iter << ' ' << std::flush;
            ofs << "coord_xy:" << loss_coord_xy.item<float>() << "(ave:" << show_progress->get_ave(0) << ") " << std::flush;
            ofs << "conf_o:" << loss_obj.item<float>() << "(ave:" << show_progress->get_ave(2) << ") " << std::flush;
            ofs << "class:" << loss_class.item<float>() << "(ave:" << show_progress->get_ave(4) << ")" << std::endl;
        }

        train_loss.at(0).plot(epoch, {show_progress->get_ave(0) + show_progress->get_ave(1) + show_progress->get_ave(2) + show_progress->get_ave(3) + show_progress->get_ave(4)});
        train_loss.at(1).plot(epoch, {show_progress->get_ave(0) + show_progress->get_ave(1)});
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
