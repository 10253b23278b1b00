// YOLOv1 detector trainer, after Object_Detection/YOLOv1/src/train.cpp
#include <iostream>
#include <fstream>
#include <filesystem>
#include <limits>
#include <string>
#include <tuple>
#include <vector>
#include <utility>
#include <torch/torch.h>
#include "koba_support.hpp"

namespace fs = std::filesystem;
using YOLOv1 = DetectorNet;

// YOLOv1 criterion stand-in: loss terms summed over the images of the mini-batch
class Loss {
public:
    Loss(const long int class_num_, const long int ng_, const long int nb_) : class_num(class_num_), ng(ng_), nb(nb_) {}
    std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor> operator()(torch::Tensor &input, std::vector<std::tuple<torch::Tensor, torch::Tensor>> &target) {
        auto per_image = input.flatten(1);
        return {per_image.pow(2).sum(), per_image.abs().sum(), torch::sigmoid(per_image).sum(), torch::sigmoid(-per_image).sum()};
    }
private:
    long int class_num, ng, nb;
};

void train(po::variables_map &vm, torch::Device &device, YOLOv1 &model, std::vector<transforms_Compose> &transform, const std::vector<std::string> class_names) {

    size_t epoch, total_iter, start_epoch, total_epoch;
    std::string date, checkpoint_dir, path, input_dir, ids_dir;
    std::ofstream ofs;
    std::tuple<torch::Tensor, std::vector<std::tuple<torch::Tensor, torch::Tensor>>, std::vector<std::string>, std::vector<std::string>> mini_batch;
    torch::Tensor image, output, loss, loss_coord, loss_class, loss_obj, loss_noobj;
    std::vector<std::tuple<torch::Tensor, torch::Tensor>> label;
    std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor> losses;
    datasets::ImageFolderBBWithPaths dataset;
    DataLoader::ImageFolderBBWithPaths dataloader;
    std::vector<visualizer::graph> train_loss;
    progress::display *show_progress;

    input_dir = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_in_dir"].as<std::string>();
    ids_dir = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_out_dir"].as<std::string>();
    dataset = datasets::ImageFolderBBWithPaths(input_dir, ids_dir, transform);
    // drop_last: every mini-batch holds exactly batch_size images
    dataloader = DataLoader::ImageFolderBBWithPaths(dataset, vm["batch_size"].as<size_t>(), true, 4, true);
    std::cout << "total training images : " << dataset.size() << std::endl;

    auto optimizer = torch::optim::Adam(model->parameters(), torch::optim::AdamOptions(vm["lr"].as<float>()).betas({vm["beta1"].as<float>(), vm["beta2"].as<float>()}));
    auto criterion = Loss((long int)vm["class_num"].as<size_t>(), (long int)vm["ng"].as<size_t>(), (long int)vm["nb"].as<size_t>());
    const size_t accum = vm["accum"].as<size_t>();
    // the summed loss is normalised by the number of images in one update
    const double images_per_update = (double)(vm["batch_size"].as<size_t>() * accum);
    const double never_clip = std::numeric_limits<double>::infinity();

    checkpoint_dir = "checkpoints/" + vm["dataset"].as<std::string>();
    path = checkpoint_dir + "/models";  fs::create_directories(path);
    path = checkpoint_dir + "/optims";  fs::create_directories(path);
    path = checkpoint_dir + "/log";  fs::create_directories(path);
    train_loss = std::vector<visualizer::graph>(1, visualizer::graph(checkpoint_dir + "/graph", "train_loss_all", {"Total"}));

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
    size_t micro = 0;
    optimizer.zero_grad();

    for (epoch = start_epoch; epoch <= total_epoch; epoch++) {

        model->train();
        ofs << std::endl << "epoch:" << epoch << '/' << total_epoch << std::endl;
        show_progress = new progress::display(total_iter, {epoch, total_epoch}, {"coord", "class", "obj", "noobj", "grad_norm"});

        while (dataloader(mini_batch)) {

            image = std::get<0>(mini_batch).to(device);
            label = std::get<1>(mini_batch);
            output = model->forward(image).at(0);
            losses = criterion(output, label);
            loss_coord = std::get<0>(losses) * vm["Lambda_coord"].as<float>();
            loss_class = std::get<1>(losses);
            loss_obj = std::get<2>(losses);
            loss_noobj = std::get<3>(losses) * vm["Lambda_noobject"].as<float>();
            loss = loss_coord + loss_class + loss_obj + loss_noobj;
            (loss / images_per_update).backward();

            // running gradient norm for the log; an infinite limit never rescales anything
            const double grad_norm = torch::nn::utils::clip_grad_norm_(model->parameters(), never_clip);

            if (++micro == accum) {
                optimizer.step();
                optimizer.zero_grad();
                micro = 0;
            }

            const float n = (float)image.size(0);
            show_progress->increment({loss_coord.item<float>() / n, loss_class.item<float>() / n, loss_obj.item<float>() / n, loss_noobj.item<float>() / n, (float)grad_norm});
            ofs << "iters:" << show_progress->get_iters() << '/' << total_iter << ' ' << "grad_norm:" << grad_norm << std::endl;
        }

        train_loss.at(0).plot(epoch, {show_progress->get_ave(0) + show_progress->get_ave(1) + show_progress->get_ave(2) + show_progress->get_ave(3)});
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
