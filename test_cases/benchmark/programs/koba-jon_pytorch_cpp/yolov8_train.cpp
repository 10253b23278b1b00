// YOLOv8 detector trainer with the mini-batch split into chunks, after Object_Detection/YOLOv8/src/train.cpp
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

// YOLOv8 criterion stand-in: (box, obj, class, dfl)
class Loss {
public:
    Loss(const long int class_num_, const long int reg_max_) : class_num(class_num_), reg_max(reg_max_) {}
    std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor> operator()(std::vector<torch::Tensor> &inputs, std::vector<std::tuple<torch::Tensor, torch::Tensor>> &target) {
        auto p = inputs.at(0);
        return {p.abs().mean(), torch::sigmoid(p).mean(), p.pow(2).mean(), torch::softplus(p).mean()};
    }
private:
    long int class_num, reg_max;
};

class Augmentation {
public:
    std::tuple<torch::Tensor, std::vector<std::tuple<torch::Tensor, torch::Tensor>>> forward(torch::Tensor image, std::vector<std::tuple<torch::Tensor, torch::Tensor>> label) {
        return {image.flip({3}), label};
    }
};

void valid(po::variables_map &vm, DataLoader::ImageFolderBBWithPaths &valid_dataloader, torch::Device &device, Loss &criterion, YOLOv8 &model, const std::vector<std::string> class_names, const size_t epoch, std::vector<visualizer::graph> &writer);

void train(po::variables_map &vm, torch::Device &device, YOLOv8 &model, std::vector<transforms_Compose> &transform, const std::vector<std::string> class_names) {

    size_t epoch, total_iter, start_epoch, total_epoch;
    std::string date, checkpoint_dir, path, input_dir, ids_dir;
    std::ofstream ofs;
    std::tuple<torch::Tensor, std::vector<std::tuple<torch::Tensor, torch::Tensor>>, std::vector<std::string>, std::vector<std::string>> mini_batch;
    torch::Tensor image, loss, loss_box, loss_obj, loss_class, loss_dfl;
    std::vector<torch::Tensor> output;
    std::vector<std::tuple<torch::Tensor, torch::Tensor>> label;
    std::tuple<torch::Tensor, torch::Tensor, torch::Tensor, torch::Tensor> losses;
    datasets::ImageFolderBBWithPaths dataset;
    DataLoader::ImageFolderBBWithPaths dataloader, valid_dataloader;
    std::vector<visualizer::graph> train_loss, valid_loss;
    progress::display *show_progress;
    Augmentation augment;

    input_dir = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_in_dir"].as<std::string>();
    ids_dir = "datasets/" + vm["dataset"].as<std::string>() + "/" + vm["train_out_dir"].as<std::string>();
    dataset = datasets::ImageFolderBBWithPaths(input_dir, ids_dir, transform);
    dataloader = DataLoader::ImageFolderBBWithPaths(dataset, vm["batch_size"].as<size_t>(), true, 4);
    std::cout << "total training images : " << dataset.size() << std::endl;

    auto optimizer = torch::optim::Adam(model->parameters(), torch::optim::AdamOptions(vm["lr"].as<float>()).betas({vm["beta1"].as<float>(), vm["beta2"].as<float>()}));
    auto criterion = Loss((long int)vm["class_num"].as<size_t>(), (long int)vm["reg_max"].as<size_t>());
    // the loader's batch is what one update sees; it goes through the network in `micro_batches` pieces
    const int64_t micro_batches = (int64_t)vm["micro_batches"].as<size_t>();
    const double max_norm = 10.0;

    checkpoint_dir = "checkpoints/" + vm["dataset"].as<std::string>();
    path = checkpoint_dir + "/models";  fs::create_directories(path);
    path = checkpoint_dir + "/optims";  fs::create_directories(path);
    path = checkpoint_dir + "/log";  fs::create_directories(path);
    train_loss = std::vector<visualizer::graph>(5);
    train_loss.at(0) = visualizer::graph(checkpoint_dir + "/graph", "train_loss_all", {"Total"});

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
        show_progress = new progress::display(total_iter, {epoch, total_epoch}, {"box", "obj", "class", "dfl"});

        while (dataloader(mini_batch)) {

            image = std::get<0>(mini_batch).to(device);
            label = std::get<1>(mini_batch);
            if (vm["augmentation"].as<bool>()) {
                std::tie(image, label) = augment.forward(image, label);
            }

            std::vector<torch::Tensor> image_chunks = image.chunk(micro_batches, 0);
            const double n_chunks = static_cast<double>(image_chunks.size());
            float box_sum = 0.0, obj_sum = 0.0, class_sum = 0.0, dfl_sum = 0.0;
            size_t offset = 0;

            optimizer.zero_grad();
            for (auto &image_chunk : image_chunks) {
                const size_t n = (size_t)image_chunk.size(0);
                std::vector<std::tuple<torch::Tensor, torch::Tensor>> label_chunk(label.begin() + offset, label.begin() + offset + n);
                offset += n;

                output = model->forward(image_chunk);
                losses = criterion(output, label_chunk);
                loss_box = std::get<0>(losses) * vm["Lambda_box"].as<float>();
                loss_obj = std::get<1>(losses) * vm["Lambda_obj"].as<float>();
                loss_class = std::get<2>(losses) * vm["Lambda_class"].as<float>();
                loss_dfl = std::get<3>(losses) * vm["Lambda_dfl"].as<float>();
                loss = loss_box + loss_obj + loss_class + loss_dfl;
                (loss / n_chunks).backward();

                box_sum += loss_box.item<float>();
                obj_sum += loss_obj.item<float>();
                class_sum += loss_class.item<float>();
                dfl_sum += loss_dfl.item<float>();
            }
            torch::nn::utils::clip_grad_norm_(model->parameters(), max_norm);
            optimizer.step();

            const float k = (float)n_chunks;
            show_progress->increment({box_sum / k, obj_sum / k, class_sum / k, dfl_sum / k});
            ofs << "iters:" << show_progress->get_iters() << '/' << total_iter << ' ' << std::flush;
            ofs << "box:" << box_sum / k << "(ave:" << show_progress->get_ave(0) << ") " << std::flush;
            ofs << "dfl:" << dfl_sum / k << "(ave:" << show_progress->get_ave(3) << ")" << std::endl;
        }

        train_loss.at(0).plot(epoch, {show_progress->get_ave(0) + show_progress->get_ave(1) + show_progress->get_ave(2) + show_progress->get_ave(3)});
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
